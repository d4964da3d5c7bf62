#!/usr/bin/env bash
# Tests the Neovim plugin in a headless Neovim (Debian's, 0.7.2 on Debian 12)
# against the real tlc-lsp: attach, inlay hints as extmarks on the right
# lines, :TlcGenerated / :TlcOriginal / :TlcIR / :TlcInstance, :TlcLayout
# (a fragment's thread map, a shared buffer's banks, a fragment exchange's
# tiles).
#
# Two server set-ups:
#   tlc-lsp        the server as built. Where it has no generated source yet,
#                  :TlcGenerated must report the server's error and open
#                  nothing; where it has, it must open the file at the line.
#   stub back end  tlc-lsp behind editors/common/test/gen_stub_proxy.py, which
#                  answers tilelang/generatedSource|originalSource from a stub
#                  .cu file: :TlcGenerated must open it in a split at the
#                  mapped line with the range highlighted, :TlcOriginal must
#                  jump back.
# Expectations come from editors/common/test/lsp_probe.py (an independent
# stdio client of the same server) and hand-written facts in e2e.lua.
#
# usage: editors/nvim/test/run.sh      (as root or with sudo on Debian 12)
#   TLC_LSP        server binary (default: build/bin/tlc-lsp of this repo)
#   TLC_LSP_ARGS   extra server arguments (e.g. --log=verbose)
#   TLC_EXAMPLE    file to open (default: examples/gemm.py)
#   NVIM           Neovim binary (default: nvim; installed with apt if missing)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
cd "$repo"

TLC_LSP="${TLC_LSP:-build/bin/tlc-lsp}"
TLC_EXAMPLE="${TLC_EXAMPLE:-examples/gemm.py}"
NVIM="${NVIM:-nvim}"
if [ ! -x "$TLC_LSP" ]; then
  echo "nvim test: no tlc-lsp at $TLC_LSP (build it: ninja -C build tlc-lsp, or set TLC_LSP)" >&2
  exit 1
fi
TLC_LSP="$(realpath "$TLC_LSP")"
TLC_EXAMPLE="$(realpath "$TLC_EXAMPLE")"

if ! command -v "$NVIM" >/dev/null || [ ! -x /usr/bin/python3 ]; then
  SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends neovim python3
fi

# The statement whose generated code is asked for: the T.gemm call.
gen_line=$(grep -n -m1 'T.gemm(' "$TLC_EXAMPLE" | cut -d: -f1)
gen_line=$((gen_line - 1))
gen_col=$(sed -n "$((gen_line + 1))p" "$TLC_EXAMPLE" | awk '{ match($0, /[^ ]/); print RSTART - 1 }')

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The layout view's exchange tiles: a kernel whose C_local goes through
# shared memory.
TLC_EXCHANGE="$repo/editors/common/test/exchange.py"
export TLC_EXAMPLE TLC_EXCHANGE TLC_GEN_LINE="$gen_line" TLC_GEN_COL="$gen_col"
export XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" XDG_STATE_HOME="$work/state" \
  XDG_CACHE_HOME="$work/cache" NVIM_LOG_FILE="$work/nvim.log"

has_native=$("$NVIM" --headless --clean -c 'lua io.stdout:write(vim.fn.has("nvim-0.10"))' -c 'qa!' 2>/dev/null || true)
status=0
run_case() { # name, server command...
  local name="$1"; shift
  export TLC_LSP_CMD="$*" TLC_PROBE="$work/probe-$name.json" TLC_STUB=$([ "$name" = stub-backend ] && echo 1 || echo 0)
  /usr/bin/python3 "$repo/editors/common/test/lsp_probe.py" "$TLC_EXAMPLE" "$gen_line" "$gen_col" \
    --exchange "$TLC_EXCHANGE" C_local -- "$@" > "$TLC_PROBE"
  local modes=default
  [ "$has_native" = 1 ] && modes="default virtual-text"
  for mode in $modes; do
    echo "== nvim e2e: $name ($mode hints)"
    TLC_FORCE_VIRTUAL_TEXT=$([ "$mode" = virtual-text ] && echo 1 || echo 0) \
      timeout 120 "$NVIM" --headless --clean -n -i NONE \
      --cmd "set rtp^=$repo/editors/nvim" -c "luafile $here/e2e.lua" </dev/null || status=1
  done
}
# shellcheck disable=SC2086
run_case tlc-lsp "$TLC_LSP" ${TLC_LSP_ARGS:-}
# shellcheck disable=SC2086
run_case stub-backend /usr/bin/python3 "$repo/editors/common/test/gen_stub_proxy.py" "$work/stub" \
  "$TLC_LSP" ${TLC_LSP_ARGS:-}
[ $status = 0 ] && echo "nvim tests: PASS" || echo "nvim tests: FAIL"
exit $status
