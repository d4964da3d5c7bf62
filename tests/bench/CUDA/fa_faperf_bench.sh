#!/bin/bash
# On the GPU machine, after fa_run.sh: times fa_build.sh faperf's kernels
# REPEATS more times (default 4), each run one process with the kinds of a
# shape next to each other, in alternating order (def sl sd smf, then
# reversed), so that a drift of the clocks over a run does not favour a
# kind. Logs: $OUT/fa-fp-interleaved-N.log.
# Usage: bash fa_faperf_bench.sh S [REPEATS]
S=${1:?the directory fa_build.sh faperf wrote}; R=${2:-4}
O=${OUT:-/tmp/out}; mkdir -p "$O"
kinds=$(ls "$S/bench" | sed 's/_.*//' | sort -u | tr '\n' ' ')
for i in $(seq "$R"); do
  order=$kinds; [ $((i % 2)) = 0 ] && order=$(tr ' ' '\n' <<< "$kinds" | tac | tr '\n' ' ')
  dirs=()
  for shape in fac_d128 fac_d64 fa_d128 fa_d64; do
    for k in $order; do
      for d in "$S"/bench/"${k}_${shape}"_*/; do [ -d "$d" ] && dirs+=("$d"); done
    done
  done
  PYTHONUNBUFFERED=1 python3 "$S/fa_ws_bench.py" "$S/libtlc_cuda.so" "$S/tlc_runtime.py" "${dirs[@]}" \
    > "$O/fa-fp-interleaved-$i.log" 2>&1
done
# The per-kernel minimum over the runs, and its ratio to def_ of the shape.
cat "$O"/fa-fp-interleaved-*.log | awk '/\(min /{n=$1; m=$NF; sub(/\)/,"",m); if(!(n in best)||m<best[n])best[n]=m}
  END{for(n in best){s=n; sub(/^[a-z]+_/,"",s); d="def_" s; printf "%-24s min %.4f  vs def %.3f\n", n, best[n], (d in best)?best[d]/best[n]:0}}' | sort -k1,1
