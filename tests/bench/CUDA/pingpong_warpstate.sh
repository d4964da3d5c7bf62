#!/bin/bash
# Third H200 call for the 4096^3 GEMM gap (docs/perf/hopper-gemm-pingpong.md,
# run 3), staged by pingpong_stage.sh as S/go3.sh. Run from the repository
# root on the GPU machine: OUT=$OUT bash S/go3.sh (about 2 minutes).
# Nsight Compute warp-state sampling (WarpStateStats, SchedulerStats,
# InstructionStats) of one launch each of
#   pp_4096    the default 128 x 128 ping-pong kernel (384 threads)
#   wide_4096  128 x 256, two consumer warpgroups sharing a tile
#   cublas     torch.matmul's cuBLAS kernel on the same f16 problem
# so that the stall reasons of tlc's kernels can be read next to the
# peer's: where the last ~15 % of the tensor pipe goes at 4096^3.
#   warpstate.log   the three sections per kernel
#   steps.log       when each step ended
set -u
S=$(cd "$(dirname "$0")" && pwd)
O=${OUT:-/tmp/out}; mkdir -p "$O"
B=$S/bin/tlc-build; RUN=$S/bin/tlc-run
export TLC_CUDA_RUNTIME=$S/lib/libtlc_cuda.so
hg=$S/py/hopper_gemm.py
W=/tmp/pingpong-warpstate; rm -rf "$W"; mkdir -p "$W"
step() { echo "$(date +%T) $*" >> "$O/steps.log"; }
step start
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null || echo ncu)
sections="--section WarpStateStats --section SchedulerStats --section InstructionStats --section SpeedOfLight"
kernels=(
  "pp_4096|-DM=4096 -DN=4096 -DK=4096 -Dthreads=128 -Dblock_N=128 -Dnum_stages=4"
  "wide_4096|-DM=4096 -DN=4096 -DK=4096 -Dnum_stages=4"
)
for v in "${kernels[@]}"; do IFS='|' read -r n d <<< "$v"
  "$B" "$hg" -o "$W/$n" --target=cuda:sm_90a $d > /dev/null 2> "$W/$n.err" ||
    echo "BUILD FAILED: $n: $(head -c 400 "$W/$n.err")" >> "$O/warpstate.log"
done
step built
for v in "${kernels[@]}"; do IFS='|' read -r n d <<< "$v"
  echo "=== $n" >> "$O/warpstate.log"
  timeout 60 "$NCU" --clock-control none -k regex:matmul -c 1 $sections \
    "$RUN" "$W/$n" --device cuda --seed 1 >> "$O/warpstate.log" 2>&1
  step "ncu $n"
done
echo "=== cublas" >> "$O/warpstate.log"
# The 4th launch: the first ones are torch's own set-up kernels and warm-up.
timeout 90 "$NCU" --clock-control none -k regex:'gemm|sm90|cutlass|nvjet' --launch-skip 2 -c 1 $sections \
  python3 -c "
import torch
a = torch.randn(4096, 4096, device='cuda', dtype=torch.float16)
b = torch.randn(4096, 4096, device='cuda', dtype=torch.float16)
for _ in range(4):
    c = a @ b
torch.cuda.synchronize()
" >> "$O/warpstate.log" 2>&1
step "ncu cublas"
grep -E "^===|==PROF==|Stall|Warp Cycles|Issued Warp|No Eligible|Active Warps|Eligible Warps|Duration|Compute \(SM\)|Executed Ipc" "$O/warpstate.log" | head -90
