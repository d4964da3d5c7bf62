// RUN: tlc-translate --tile-to-cuda %s | FileCheck %s
// RUN: tlc-translate --tile-to-cuda %S/Inputs/pipeline-wait-plan-unplanned.mlir | FileCheck %s --check-prefix=OWN
// RUN: tlc-translate --tile-to-hip %S/Inputs/pipeline-wait-plan-unplanned.mlir | FileCheck %s --check-prefix=OWNHIP
// RUN: not tlc-translate --tile-to-cuda %S/Inputs/pipeline-wait-plan-malformed.mlir 2>&1 | FileCheck %S/Inputs/pipeline-wait-plan-malformed.mlir
// RUN: not tlc-translate --tile-to-hip %S/Inputs/pipeline-wait-plan-malformed.mlir 2>&1 >/dev/null | FileCheck %S/Inputs/pipeline-wait-plan-malformed.mlir --check-prefix=HIP
// RUN: not tlc-translate --tile-to-hip %S/Inputs/pipeline-wait-plan-malformed.mlir 2>/dev/null | FileCheck %S/Inputs/pipeline-wait-plan-malformed.mlir --check-prefix=HIPOUT

// The CUDA printer waits for a multi-buffered loop's stage as
// tile-plan-pipeline-waits recorded (tile.async_wait on the loop,
// tile.pipeline_waits_planned on the module), not as it would choose:
// here no group left in flight with 3 stages (the pass's choice is 1; a
// smaller count only waits longer).
// CHECK-LABEL: wait_all_kernel(
// CHECK: // T.Pipelined (num_stages = 3: cp.async into 3 shared-memory stages)
// CHECK: tlc::cuda::cpAsyncWait<0>();  // stage of k landed
// CHECK-NEXT: __syncthreads();
// CHECK-NOT: fenceProxyAsyncShared
// A fence the plan asks for is printed before the barrier.
// CHECK-LABEL: fenced_kernel(
// CHECK: tlc::cuda::cpAsyncWait<1>();  // stage of k landed
// CHECK-NEXT: tlc::cuda::fenceProxyAsyncShared();
// CHECK-NEXT: __syncthreads();
//
// Without a plan (hand-written IR) the printer takes the pass's choice
// (PipelineWaitPlan.h's choosePipelineWait): S - 2 = 1 group in flight, no
// fence for mma.sync; HIP's producers are plain loads: no wait.
// OWN-LABEL: own_kernel(
// OWN: tlc::cuda::cpAsyncWait<1>();  // stage of k landed
// OWN-NEXT: __syncthreads();
// OWNHIP-LABEL: own_kernel(
// OWNHIP-NOT: cpAsyncWait
// OWNHIP: // stage of k written; iteration k - 1 is done with its stage

module attributes {tile.pipeline_waits_planned} {
tile.func @wait_all(%A: !tile.buffer<[256, 256], f16, global>, %B: !tile.buffer<[256, 256], f16, global>) {
  tile.kernel (%bx, %by) grid [4, 4] threads [128] {
    %A_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %B_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    tile.pipelined %k = %c0 to %c8 stages 3 attributes {tile.async_wait = 0 : i64} {
      %y = arith.muli %by, %c64 : index
      %x = arith.muli %bx, %c64 : index
      %kk = arith.muli %k, %c32 : index
      %At = tile.region %A[%y, %kk] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %At to %A_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      %Bt = tile.region %B[%x, %kk] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %Bt to %B_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      tile.gemm %A_s, %B_s, %acc {transpose_b} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    }
  }
}
tile.func @fenced(%A: !tile.buffer<[256, 256], f16, global>, %B: !tile.buffer<[256, 256], f16, global>) {
  tile.kernel (%bx, %by) grid [4, 4] threads [128] {
    %A_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %B_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    tile.pipelined %k = %c0 to %c8 stages 3 attributes {tile.async_wait = 1 : i64, tile.async_proxy_fence} {
      %y = arith.muli %by, %c64 : index
      %x = arith.muli %bx, %c64 : index
      %kk = arith.muli %k, %c32 : index
      %At = tile.region %A[%y, %kk] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %At to %A_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      %Bt = tile.region %B[%x, %kk] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %Bt to %B_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      tile.gemm %A_s, %B_s, %acc {transpose_b} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    }
  }
}
}
