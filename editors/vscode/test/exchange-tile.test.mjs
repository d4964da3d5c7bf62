// exchange-tile.test.mjs - the layout view's exchange section
// (src/exchangeTile.ts) drawn from a real tlc-lsp's `tilelang/layout`
// result, checked against the tile's bank arithmetic done here.
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The server answers tests/lit/lsp/layout-exchange.test's transcript (the
// HIP kernel whose C_local goes through LDS: a 64x64 float32 tile at byte
// 8192; the mfma32 accumulator's worst store puts lane l at (l, 0), the
// transposed loop's worst load lane l at (0, l)). Needs the extension's npm
// packages (esbuild) and a built server.
//
// usage: node editors/vscode/test/exchange-tile.test.mjs [path/to/tlc-lsp]

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const ext = path.resolve(here, '..');
const repo = path.resolve(ext, '../..');
const server = path.resolve(process.argv[2] ?? process.env.TLC_LSP ??
                            path.join(repo, 'build/bin/tlc-lsp'));
let failures = 0;
function check(ok, what) {
  console.log(`${ok ? 'PASS' : 'FAIL'} ${what}`);
  if (!ok)
    failures++;
}

// The renderer, bundled as an ES module.
const esbuild = await import(path.join(ext, 'node_modules/esbuild/lib/main.js'));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tlc-exchange-'));
const bundle = path.join(dir, 'exchangeTile.mjs');
await esbuild.build({
  entryPoints: [path.join(ext, 'src/exchangeTile.ts')],
  bundle: true, format: 'esm', platform: 'node', outfile: bundle,
  logLevel: 'warning',
});
const { renderExchangeTiles } = await import(bundle);

// The server's answers (`--lit-test` prints each message as JSON).
const transcript = fs.readFileSync(
    path.join(repo, 'tests/lit/lsp/layout-exchange.test'), 'utf8');
const out = execFileSync(server, ['--lit-test'], {
  input: transcript, encoding: 'utf8', maxBuffer: 1 << 28 });
// One pretty-printed message per block from a `{` to a `}` line.
const replies = new Map();
for (const block of out.split(/^(?=\{$)/m)) {
  let m;
  try {
    m = JSON.parse(block);
  } catch {
    continue;
  }
  if (m.id !== undefined && m.result !== undefined)
    replies.set(m.id, m.result);
}
const layout = replies.get(1);
check(layout && layout.exchanges && layout.exchanges.length === 1,
      'tilelang/layout of C_local has one exchange');
if (failures) {
  console.log('1 FAILED (no exchange in the result)');
  process.exit(1);
}
const x = layout.exchanges[0];
const html = renderExchangeTiles(layout.exchanges);

// Independent bank arithmetic: element e of the row-major tile at byte
// `offset` lies in bank ((offset + 4 e) / 4) mod 32.
const bankOf = (i, j) => Math.floor((x.offset + 4 * (i * x.cols + j)) / 4) % 32;
check(x.offset === 8192 && x.rows === 64 && x.cols === 64 && x.elementBytes === 4,
      `tile ${x.rows}x${x.cols}, ${x.elementBytes}-byte elements at byte ${x.offset}`);

const figures = [...html.matchAll(/<figure class="exchange-picture" data-access="(\w+)" data-degree="(\d+)">(.*?)<\/figure>/g)];
check(figures.length === 2, 'two pictures: the worst store and the worst load');
const cellsOf = (fig) => [...fig.matchAll(/<rect class="xcell([^"]*)"[^>]*data-i="(\d+)" data-j="(\d+)" data-bank="(\d+)"(?: data-lanes="([^"]*)")?\/>/g)]
    .map((m) => ({ cls: m[1], i: +m[2], j: +m[3], bank: +m[4], lanes: m[5] }));
for (const [, access, degree, body] of figures) {
  const cells = cellsOf(body);
  check(cells.length === 64 * 64, `${access}: 4096 cells drawn (${cells.length})`);
  check(cells.every((c) => c.bank === bankOf(c.i, c.j)),
        `${access}: every cell's bank is (8192 / 4 + 64 i + j) mod 32`);
  const accessed = cells.filter((c) => c.lanes !== undefined);
  check(accessed.length === 32, `${access}: 32 cells carry a lane (${accessed.length})`);
  if (access === 'stores') {
    check(degree === '32', 'the worst store is 32-way');
    check(accessed.every((c) => c.j === 0 && c.lanes === String(c.i)),
          'store lane l writes (l, 0): one column');
    check(accessed.every((c) => c.bank === 0 && c.cls.includes('conflict')),
          'all 32 store cells are in bank 0 and outlined as conflicting');
    check(/figcaption>worst store instruction: 32-way bank conflict/.test(body),
          'the store caption states the degree');
  } else {
    check(degree === '1', 'the worst load is conflict-free');
    check(accessed.every((c) => c.i === 0 && c.lanes === String(c.j)),
          'load lane l reads (0, l): one row');
    check(accessed.every((c) => !c.cls.includes('conflict')),
          'no load cell is outlined');
  }
}
const rows = [...html.matchAll(/<tr data-bank="(\d+)" data-stores="(\d+)" data-loads="(\d+)">/g)];
check(rows.length === 32, 'the bank table has 32 rows');
check(rows.every(([, b, s, l]) => +s === (+b === 0 ? 32 : 0) && +l === 1),
      'bank table: 32 store words in bank 0, one load word in every bank');
check(html.includes('C_local via LDS · stores 32-way, loads conflict-free'),
      'the section is titled with the inlay label');
check(renderExchangeTiles([]) === '' && renderExchangeTiles(undefined) === '',
      'no exchanges, no section');
const shared = replies.get(2);
check(shared && Array.isArray(shared.exchanges) && shared.exchanges.length === 0,
      'a shared buffer has no exchanges');

fs.rmSync(dir, { recursive: true, force: true });
console.log(failures ? `${failures} FAILED` : 'all passed');
process.exit(failures ? 1 : 0);
