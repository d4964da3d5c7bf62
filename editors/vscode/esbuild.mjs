// esbuild.mjs - bundles src/extension.ts and vscode-languageclient into
// out/extension.js (one CommonJS file; `vscode` is provided by the host).
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');

await esbuild.build({
  entryPoints: ['src/extension.ts'],
  bundle: true,
  outfile: 'out/extension.js',
  external: ['vscode'],
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minify: production,
  sourcemap: !production,
  logLevel: 'warning',
});
