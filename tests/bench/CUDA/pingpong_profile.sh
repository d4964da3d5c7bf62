#!/bin/bash
# Second H200 call for tile-gemm-pingpong (docs/perf/hopper-gemm-pingpong.md,
# run 2), staged by pingpong_stage.sh as S/go2.sh. Run from the repository
# root on the GPU machine: OUT=$OUT bash S/go2.sh (about 1-2 minutes; the
# profiles stop after 170 s).
#   verify.log   two GEMMs built WITHOUT tlc.gemm_pingpong that the default
#                rule makes ping-pong (ragged), on the GPU against the CPU
#                target, and a check that each is ping-pong
#   bench.log    tlc-run --bench of the profiled kernels (median of 50)
#   ncu.log      Nsight Compute SpeedOfLight and MemoryWorkloadAnalysis of
#                one launch of each: is the 128 x 128 tile bound by L2
#                traffic (the inference of run 1), the 128 x 256 one not?
#   metrics.log  L2 bytes and throughput, DRAM bytes, SM and tensor pipe
#                utilisation as raw ncu metrics (skipped names are reported)
#   steps.log    when each step ended
set -u
S=$(cd "$(dirname "$0")" && pwd)
O=${OUT:-/tmp/out}; mkdir -p "$O"
B=$S/bin/tlc-build; RUN=$S/bin/tlc-run
export TLC_CUDA_RUNTIME=$S/lib/libtlc_cuda.so
hg=$S/py/hopper_gemm.py
W=/tmp/pingpong-profile; rm -rf "$W"; mkdir -p "$W"
step() { echo "$(date +%T) $*" >> "$O/steps.log"; }
# The call stays within about 3 minutes: later profiles are skipped.
late() { [ "$SECONDS" -gt 170 ] && echo "skipped: ${SECONDS}s spent" >> "$O/steps.log"; }
step start
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null || echo ncu)
off=--pass-config=tlc.gemm_pingpong=False
# name | bindings. pp_*: the default rule's ping-pong (no pass config).
kernels=(
  "pp_4096|-DM=4096 -DN=4096 -DK=4096 -Dthreads=128 -Dblock_N=128 -Dnum_stages=4"
  "ctl_4096|-DM=4096 -DN=4096 -DK=4096 -Dthreads=128 -Dblock_N=128 -Dnum_stages=4 $off"
  "wide_4096|-DM=4096 -DN=4096 -DK=4096 -Dnum_stages=4"
  "pp_k1024|-DM=8192 -DN=8192 -DK=1024 -Dthreads=128 -Dblock_N=128 -Dnum_stages=4"
  "ctl_k1024|-DM=8192 -DN=8192 -DK=1024 -Dthreads=128 -Dblock_N=128 -Dnum_stages=4 $off"
  "wide_k1024|-DM=8192 -DN=8192 -DK=1024 -Dnum_stages=4"
  "m64_4096|-DM=4096 -DN=4096 -DK=4096 -Dthreads=128 -Dblock_M=64 -Dblock_N=256 -Dnum_stages=3 --pass-config=tlc.gemm_pingpong=True"
)
verify=(
  "def_nn_f16|-DM=3000 -DN=2000 -DK=264 -Dthreads=128 -Dblock_N=128 -Dnum_stages=4"
  "def_tn_bf16|-DM=1000 -DN=1000 -DK=328 -Dthreads=128 -Dblock_N=128 -Dnum_stages=4 -Dtrans_B=True -Ddtype=T.bfloat16 --pass-config=tlc.num_sms=7"
)
jobs=()
for v in "${kernels[@]}"; do IFS='|' read -r n d <<< "$v"; jobs+=("$W/$n|--target=cuda:sm_90a $d"); done
for v in "${verify[@]}"; do IFS='|' read -r n d <<< "$v"
  jobs+=("$W/$n/cuda|--target=cuda:sm_90a $d" "$W/$n/cpu|--target=cpu $d"); done
printf '%s\n' "${jobs[@]}" | xargs -P 16 -I{} bash -c 'IFS="|" read -r o d <<< "{}"; mkdir -p "$(dirname "$o")"; "'"$B"'" "'"$hg"'" -o "$o" $d > /dev/null 2> "$o.err" || echo "BUILD FAILED: $o: $(head -c 400 "$o.err")"' > "$O/verify.log" 2>&1
step built
for v in "${verify[@]}"; do IFS='|' read -r n d <<< "$v"
  grep -q "2 \* gridDim.x" "$W/$n/cuda/"*.cu && echo "$n: ping-pong by default" >> "$O/verify.log" || echo "$n: NOT PING-PONG" >> "$O/verify.log"
  timeout 60 "$RUN" "$W/$n/cuda" --device cuda --verify --reference "$W/$n/cpu" --seed 5 >> "$O/verify.log" 2>&1
  echo "rc=$?" >> "$O/verify.log"
done
for v in "${kernels[@]}"; do IFS='|' read -r n d <<< "$v"
  echo "$n: $(grep -c '2 \* gridDim.x' "$W/$n/"*.cu) ping-pong loops, $(grep -o '__launch_bounds__([0-9]*' "$W/$n/"*.cu)" >> "$O/verify.log"; done
echo "PASS $(grep -c 'verify C: PASS' "$O/verify.log") of ${#verify[@]}" | tee -a "$O/verify.log"
step verified
for v in "${kernels[@]}"; do IFS='|' read -r n d <<< "$v"
  echo "=== $n" >> "$O/bench.log"
  timeout 60 "$RUN" "$W/$n" --device cuda --bench --bench-runs=50 --seed 1 >> "$O/bench.log" 2>&1
done
step bench
for v in "${kernels[@]}"; do IFS='|' read -r n d <<< "$v"
  late && break
  echo "=== $n" >> "$O/ncu.log"
  timeout 40 "$NCU" --clock-control none -k regex:matmul -c 1 --section SpeedOfLight \
    --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis \
    "$RUN" "$W/$n" --device cuda --seed 1 >> "$O/ncu.log" 2>&1
  step "ncu $n"
done
# Two lists: a name ncu does not know fails its whole invocation.
m=lts__t_bytes.sum,lts__t_bytes.sum.per_second,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum
m2=sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum
for n in pp_4096 ctl_4096 wide_4096 pp_k1024 wide_k1024 m64_4096; do
  late && break
  echo "=== $n" >> "$O/metrics.log"
  for list in "$m" "$m2"; do
    timeout 40 "$NCU" --clock-control none -k regex:matmul -c 1 --metrics "$list" \
      "$RUN" "$W/$n" --device cuda --seed 1 >> "$O/metrics.log" 2>&1
  done
done
step metrics
tail -4 "$O/verify.log"; grep -E "^===|Duration|L2 Cache Throughput|DRAM Throughput|Compute \(SM\)|Memory Throughput" "$O/ncu.log" | head -60
grep -E "^===|lts__|dram__|sm__|gpu__|ERROR" "$O/metrics.log" | head -80
