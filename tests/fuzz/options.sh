# libFuzzer options of each target, shared by run.sh, device-run.sh and
# throughput.sh (sourced; paths relative to the repository root).
#
#   fuzz_seeds TARGET   seed directories (the regression corpus first)
#   fuzz_flags TARGET   -max_len, -dict and the other per-target options
#
# FUZZ_PROFILE=old gives the options of the runs before 2026-12-02 (for
# throughput.sh's before/after); the default is the current set.

fuzz_seeds() {
  echo tests/fuzz/corpus/"$1" # What the target found before.
  case $1 in
    parser | eval) echo examples tests/lit/Conformance ;;
    manifest) echo tests/fuzz/seeds/manifest ;;
    npy) echo tests/fuzz/seeds/npy ;;
    lsp) echo tests/fuzz/seeds/lsp ;;
  esac
}

fuzz_flags() {
  local t=$1
  case $t in
    parser | eval) echo -dict=tests/fuzz/dicts/python.dict ;;
    lsp) echo -dict=tests/fuzz/dicts/lsp.dict ;;
  esac
  if [ "${FUZZ_PROFILE:-}" = old ]; then
    # Input sizes of the third attempt: parser 2 KB, eval 16 KB, lsp 8 KB.
    case $t in
      parser) echo -max_len=2048 ;;
      eval) echo -max_len=16384 ;;
      *) echo -max_len=8192 ;;
    esac
    return
  fi
  # parser: 1 KB inputs (the edit and a few statements around it; half the
  # time per input of 2 KB) and no entropic schedule (its rare-feature
  # bookkeeping was a quarter of the time while the corpus grows); eval:
  # whole programs, no entropic schedule; lsp: sessions of 8 KB.
  case $t in
    parser) echo -max_len=1024 -entropic=0 ;;
    eval) echo -max_len=16384 -entropic=0 ;;
    *) echo -max_len=8192 ;;
  esac
}
