#!/bin/bash
# Stages the GPU-host timing of `tlc-run --device cuda --verify` (session
# 39, docs/perf/cpu-reference-speed.md) into DIR (default
# /work/main/build-h200-verify39): bin/tlc-run-old (OLD, default main's
# build) and bin/tlc-run (this tree's), xz-compressed; the corpus
# programs of run 15-slow named in PROGS built here by this tree's
# tlc-build for cuda:sm_90a and cpu at their own sizes (progs/NAME/{cuda,cpu}),
# their runargs, verify_speed.sh and speed.sh, which runs each program's
# verify with the old and the new tlc-run (16 threads for the reference,
# as run 15-slow) and prints verify_speed.sh's lines.
set -e
R=$(cd "$(dirname "$0")/../../.." && pwd)
D=${1:-/work/main/build-h200-verify39}
OLD=${OLD:-/work/main/build/bin/tlc-run}
C=${CORPUS:-/work/main/build-h200-verify37/corpus}
PROGS=${PROGS:-"examples__linear_attention__example_linear_attn_bwd
examples__linear_attention__example_linear_attn_fwd
examples__warp_specialize__example_warp_specialize_gemm_barrierpipe_stage2"}
mkdir -p $D/bin $D/progs
xz -T2 -6 -c $OLD > $D/bin/tlc-run-old.xz
xz -T2 -6 -c $R/build/bin/tlc-run > $D/bin/tlc-run.xz
cp $R/tests/bench/Cpu/verify_speed.sh $D/
grep -h "" $R/tests/bench/numerics/corpus-runargs.txt > $D/runargs.txt
export TLC_CACHE_DIR=/tmp/verify39-stage-cache
for n in $PROGS; do
  rm -rf $D/progs/$n
  $R/build/bin/tlc-build --target=cuda:sm_90a --no-cache -o $D/progs/$n/cuda $C/$n.py > /dev/null
  $R/build/bin/tlc-build --target=cpu --no-cache -o $D/progs/$n/cpu $C/$n.py > /dev/null
  rm -rf $D/progs/$n/*/*.cpp $D/progs/$n/*/*.cu $D/progs/$n/*/tlc_cpu.h $D/progs/$n/*/tlc_device
done
cat > $D/speed.sh <<'RUN'
#!/bin/bash
# Old and new tlc-run --device cuda --verify --threads 16 --timings of each
# staged program (verify_speed.sh), 120 s a run at most.
S=$(cd "$(dirname "$0")" && pwd)
for b in tlc-run tlc-run-old; do
  [ -f $S/bin/$b ] || xz -dc $S/bin/$b.xz > $S/bin/$b; chmod +x $S/bin/$b
done
for d in $S/progs/*/; do
  n=$(basename $d)
  extra=$(awk -v n=$n '$1 == n { $1 = ""; print }' $S/runargs.txt)
  LIMIT=120 bash $S/verify_speed.sh $S/bin/tlc-run-old $S/bin/tlc-run cuda \
    $d/cuda $d/cpu 16 1 $extra
done
RUN
chmod +x $D/speed.sh
du -sh $D
