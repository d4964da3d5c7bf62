#!/bin/bash
# Stages the CPU-reference timing of issue 13's nine slow corpus programs
# (docs/perf/cpu-reference-speed.md) into DIR (default
# build-cpu-speed of the worktree): bin/tlc-run (this tree's), the
# programs' CPU artifacts at their own sizes built by OLD (default
# /work/main/build/bin/tlc-build) into old/NAME and by NEW (default
# build/bin/tlc-build of this tree) into new/NAME, and run.sh, which times
# `tlc-run --device cpu --threads 16` of each, old then new (60 s a run,
# none started after 360 s, so at most 420 s in all), into DIR/times.txt (or $OUT/times.txt).
# On the GPU host: bash DIR/run.sh
set -e
R=$(cd "$(dirname "$0")/../../.." && pwd)
D=${1:-$R/build-cpu-speed}
OLD=${OLD:-/work/main/build/bin/tlc-build}; NEW=${NEW:-$R/build/bin/tlc-build}
C=${CORPUS:-/work/corpus}
P="sparse_mla_bwd sparse_mla_fwd_pipelined example_mha_fwd_bhsd_wgmma_pipelined
example_mha_fwd_bshd example_gemm_persistent example_linear_attn_bwd
example_warp_specialize_gemm_barrierpipe_stage2
example_warp_specialize_gemm_copy_0_gemm_1
example_warp_specialize_gemm_softpipe_stage2"
rm -rf $D && mkdir -p $D/bin
cp $R/build/bin/tlc-run $D/bin/
for n in $P; do
  for v in old new; do
    B=$OLD; [ $v = new ] && B=$NEW
    TLC_CACHE_DIR=/tmp/cpu-speed-cache-$v $B --target=cpu --no-cache \
      -o $D/$v/$n $C/$n.py > /dev/null
    rm -f $D/$v/$n/*.cpp $D/$v/$n/tlc_cpu.h
  done
done
cat > $D/run.sh <<'RUN'
#!/bin/bash
# tlc-run --device cpu --threads 16 of old/NAME and new/NAME: user and wall
# seconds and tlc-run's phase timings, one line each.
D=$(cd "$(dirname "$0")" && pwd); O=${OUT:-$D}; mkdir -p $O
T=$O/times.txt; echo "# $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo)" > $T
SECONDS=0
for n in $(ls $D/new); do
  for v in old new; do
    if [ $SECONDS -gt 360 ]; then echo "$v $n not run (360 s spent)" >> $T; continue; fi
    TIMEFORMAT="%U %R"
    { time timeout 60 $D/bin/tlc-run --device cpu --threads 16 --timings \
        $D/$v/$n > $O/log 2>&1; rc=$?; } 2> $O/t
    echo "$v $n rc=$rc user/wall $(tail -1 $O/t) $(grep -h timings: $O/log | tr -s ' ' | tr '\n' ' ')" >> $T
  done
done
echo "# done at ${SECONDS}s" >> $T; cat $T
RUN
chmod +x $D/run.sh
du -sh $D
