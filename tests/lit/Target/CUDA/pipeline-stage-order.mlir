// RUN: tlc-translate --tile-to-cuda %s | FileCheck %s

// Explicit T.Pipelined(stage=..., order=...): the copies in stage 0 run
// max(stage) iterations ahead into max(stage) + 1 shared buffers; `order`
// orders their issue and puts them before or after the compute.

// num_stages = 3 but stage [0, 0, 1]: one iteration ahead, two buffers
// (2 x 4 KiB per tile), B's copy issued first (order [1, 0, 2]).
// CHECK-LABEL: void __launch_bounds__(128) ahead1_kernel(
// CHECK: half *A_s = reinterpret_cast<tlc::cuda::half *>(smem + 0);
// CHECK: half *B_s = reinterpret_cast<tlc::cuda::half *>(smem + 8192);
// CHECK: // T.Pipelined (num_stages = 2: cp.async into 2 shared-memory stages)
// CHECK: const int prologue = 0 + 0;
// CHECK-NOT: prologue_1
// CHECK: cpAsync<16>(&B_s[
// CHECK: cpAsync<16>(&A_s[
// CHECK: int readStage = 0, writeStage = 1;
// CHECK: tlc::cuda::cpAsyncWait<0>();  // stage of k landed
// CHECK-NEXT: __syncthreads();
// CHECK-NEXT: const int ahead = k + 1;
// CHECK: cpAsync<16>(&(B_s + writeStage * 2048)
// CHECK: cpAsync<16>(&(A_s + writeStage * 2048)
// CHECK: // T.gemm

// order [2, 1, 0]: the copies of iteration k + 2 are issued after the gemm
// (B before A)
// of iteration k, so one group fewer is in flight at the wait.
// CHECK-LABEL: void __launch_bounds__(128) copies_last_kernel(
// CHECK: // T.Pipelined (num_stages = 3: cp.async into 3 shared-memory stages)
// CHECK: for (int k = 0; k < 8; ++k) {
// CHECK-NEXT: tlc::cuda::cpAsyncWait<1>();  // stage of k landed
// CHECK-NEXT: __syncthreads();
// CHECK: // T.gemm
// CHECK-NOT: __syncthreads();
// CHECK: const int ahead = k + 2;
// CHECK: cpAsync<16>(&(B_s + writeStage * 2048)
// CHECK: cpAsync<16>(&(A_s + writeStage * 2048)
// CHECK: tlc::cuda::cpAsyncCommit();
// CHECK-NEXT: readStage = readStage + 1 == 3 ? 0 : readStage + 1;

// stage [0, 1, 1]: only A is prefetched; B is copied synchronously in the
// loop (one buffer) before the gemm.
// CHECK-LABEL: void __launch_bounds__(128) b_in_loop_kernel(
// CHECK: half *A_s = reinterpret_cast<tlc::cuda::half *>(smem + 0);
// CHECK: half *B_s = reinterpret_cast<tlc::cuda::half *>(smem + 8192);
// The iteration's barrier also orders this copy after the previous
// iteration's gemm read B_s.
// CHECK: tlc::cuda::cpAsyncWait<0>();  // stage of k landed
// CHECK-NEXT: __syncthreads();
// CHECK-NOT: __syncthreads();
// CHECK: // T.copy  g.py:13:13
// CHECK: tlc::cuda::copyVector<16>(&B_s[
// CHECK: __syncthreads();  // shared-memory dependence
// CHECK-NEXT: // T.gemm

tile.func @ahead1(%A: !tile.buffer<[256, 256], f16, global> loc("A"), %B: !tile.buffer<[256, 256], f16, global> loc("B"), %C: !tile.buffer<[256, 256], f32, global> loc("C")) {
  tile.kernel (%bx, %by) grid [4, 4] threads [128] {
    %A_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn> loc("A_s"("g.py":5:9))
    %B_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn> loc("B_s"("g.py":6:9))
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment> loc("acc"("g.py":7:9))
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    tile.pipelined %k = %c0 to %c8 stages 3 order [1, 0, 2] stage [0, 0, 1] {
      %y = arith.muli %by, %c64 : index
      %x = arith.muli %bx, %c64 : index
      %kk = arith.muli %k, %c32 : index
      %At = tile.region %A[%y, %kk] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %At to %A_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn> loc("g.py":12:13)
      %Bt = tile.region %B[%x, %kk] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %Bt to %B_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn> loc("g.py":13:13)
      tile.gemm %A_s, %B_s, %acc {transpose_b} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment> loc("g.py":14:13)
    } loc("g.py":11:9)
  } loc("g.py":3:5)
}

tile.func @copies_last(%A: !tile.buffer<[256, 256], f16, global> loc("A"), %B: !tile.buffer<[256, 256], f16, global> loc("B"), %C: !tile.buffer<[256, 256], f32, global> loc("C")) {
  tile.kernel (%bx, %by) grid [4, 4] threads [128] {
    %A_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn> loc("A_s"("g.py":5:9))
    %B_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn> loc("B_s"("g.py":6:9))
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment> loc("acc"("g.py":7:9))
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    tile.pipelined %k = %c0 to %c8 stages 3 order [2, 1, 0] {
      %y = arith.muli %by, %c64 : index
      %x = arith.muli %bx, %c64 : index
      %kk = arith.muli %k, %c32 : index
      %At = tile.region %A[%y, %kk] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %At to %A_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn> loc("g.py":12:13)
      %Bt = tile.region %B[%x, %kk] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %Bt to %B_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn> loc("g.py":13:13)
      tile.gemm %A_s, %B_s, %acc {transpose_b} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment> loc("g.py":14:13)
    } loc("g.py":11:9)
  } loc("g.py":3:5)
}

tile.func @b_in_loop(%A: !tile.buffer<[256, 256], f16, global> loc("A"), %B: !tile.buffer<[256, 256], f16, global> loc("B"), %C: !tile.buffer<[256, 256], f32, global> loc("C")) {
  tile.kernel (%bx, %by) grid [4, 4] threads [128] {
    %A_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn> loc("A_s"("g.py":5:9))
    %B_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn> loc("B_s"("g.py":6:9))
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment> loc("acc"("g.py":7:9))
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    tile.pipelined %k = %c0 to %c8 stages 2 stage [0, 1, 1] {
      %y = arith.muli %by, %c64 : index
      %x = arith.muli %bx, %c64 : index
      %kk = arith.muli %k, %c32 : index
      %At = tile.region %A[%y, %kk] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %At to %A_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn> loc("g.py":12:13)
      %Bt = tile.region %B[%x, %kk] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %Bt to %B_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn> loc("g.py":13:13)
      tile.gemm %A_s, %B_s, %acc {transpose_b} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment> loc("g.py":14:13)
    } loc("g.py":11:9)
  } loc("g.py":3:5)
}
