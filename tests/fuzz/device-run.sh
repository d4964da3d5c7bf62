#!/usr/bin/env bash
# Runs every fuzz target at once for T seconds over the cores of a larger
# machine (the H200 host's 16), then stops them and writes the figures and
# what they found to $OUT. Staged with the coverage-only binaries under
# bin/, the seeds and dictionaries (see tests/fuzz/README.md):
#
#   T=400 OUT=/tmp/out bash device-run.sh
#
# libFuzzer's -fork parent waits for its running jobs (each up to 300 s)
# once -max_total_time has passed, so every target runs in its own
# process group that is sent SIGINT at T seconds and SIGKILL 15 s later;
# the parent's last "#N: cov" line gives the executions.
set -uo pipefail
cd "$(dirname "$0")"
T=${T:-400}
OUT=${OUT:?}
mkdir -p out
# target forks max_len dict seeds...
spec() {
  case $1 in
    parser) echo 4 2048 python tests/fuzz/corpus/parser examples tests/lit/Conformance ;;
    eval) echo 7 16384 python tests/fuzz/corpus/eval examples tests/lit/Conformance ;;
    lsp) echo 4 8192 lsp tests/fuzz/corpus/lsp tests/fuzz/seeds/lsp ;;
    npy) echo 0 8192 - tests/fuzz/corpus/npy tests/fuzz/seeds/npy ;;
    manifest) echo 0 8192 - tests/fuzz/corpus/manifest tests/fuzz/seeds/manifest ;;
  esac
}
pids=()
for t in parser eval lsp npy manifest; do
  read -r fork maxlen dict seeds <<<"$(spec $t)"
  mkdir -p out/$t/corpus out/$t/crashes
  args=(-max_len=$maxlen -timeout=20 -rss_limit_mb=3072 -print_final_stats=1
        -artifact_prefix=out/$t/crashes/)
  ((fork)) && args+=(-fork=$fork -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
  [ "$dict" != - ] && args+=(-dict=tests/fuzz/dicts/$dict.dict)
  # npy and manifest share one core: npy to 10^7, then manifest.
  case $t in
    npy) continue ;;
    manifest)
      setsid bash -c "bin/tlc-fuzz-npy -runs=10000000 -max_len=8192 -timeout=20 \
        -print_final_stats=1 -artifact_prefix=out/npy/crashes/ out/npy/corpus \
        tests/fuzz/corpus/npy tests/fuzz/seeds/npy > out/npy/last.log 2>&1; \
        exec bin/tlc-fuzz-manifest ${args[*]} -runs=100000000 out/manifest/corpus \
        $seeds > out/manifest/last.log 2>&1" &
      ;;
    *)
      # shellcheck disable=SC2086
      setsid bin/tlc-fuzz-$t "${args[@]}" -runs=1000000000 out/$t/corpus $seeds \
        > out/$t/last.log 2>&1 &
      ;;
  esac
  pids+=($!)
done
start=$(date +%s)
sleep "$T"
for p in "${pids[@]}"; do kill -INT -- -"$p" 2>/dev/null; done
sleep 15
for p in "${pids[@]}"; do kill -KILL -- -"$p" 2>/dev/null; done
wait
secs=$(( $(date +%s) - start ))
{
  nproc | sed 's/^/cores: /'
  printf '%-9s %12s %8s %8s %8s %7s %8s\n' target executions seconds edges features corpus crashes
  for t in parser eval lsp npy manifest; do
    log=out/$t/last.log
    case $t in
      parser | eval | lsp) # The fork parent's "#N: cov" lines.
        execs=$(grep -o '^#[0-9]*: cov' "$log" | grep -o '[0-9]*' | tail -1) ;;
      *) execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
         # Interrupted (SIGINT): no final stats; the last "#N" line.
         [ -n "$execs" ] || execs=$(grep -o '^#[0-9]*' "$log" | tr -d '#' | tail -1) ;;
    esac
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*')
    ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*')
    corp=$(find out/$t/corpus -type f | wc -l)
    crashes="$(find out/$t/crashes -type f -name 'crash-*' | wc -l)/$(find out/$t/crashes -type f | wc -l)"
    printf '%-9s %12s %8s %8s %8s %7s %8s\n' "$t" "${execs:-?}" "$secs" "${cov:-?}" "${ft:-?}" "$corp" "$crashes"
  done
} | tee "$OUT/summary.txt"
tar czf "$OUT/logs.tar.gz" out/*/last.log
tar czf "$OUT/crashes.tar.gz" out/*/crashes
for t in parser eval lsp manifest npy; do tar czf "$OUT/corpus-$t.tar.gz" -C out/$t corpus; done
ls -la "$OUT"
