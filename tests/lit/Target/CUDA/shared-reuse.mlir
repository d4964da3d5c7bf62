// RUN: tlc-translate --tile-to-cuda %s | FileCheck %s

// tile-plan-shared-memory lets the epilogue tile C_s reuse the bytes of the
// pipeline stages of A_s and B_s, which are dead after the loop; the printer
// then needs a barrier between the loop's last reads of A_s/B_s (the gemm)
// and the first write of C_s, which it would not need without the reuse.
// CHECK-LABEL: void __launch_bounds__(128) epilogue_kernel(
// CHECK: half *A_s = reinterpret_cast<tlc::cuda::half *>(smem + 0);
// CHECK: half *B_s = reinterpret_cast<tlc::cuda::half *>(smem + 12288);
// CHECK: float *C_s = reinterpret_cast<float *>(smem + 0);
// CHECK: // T.Pipelined (num_stages = 3
// CHECK: tlc::cuda::cpAsyncWaitAll();
// CHECK: __syncthreads();  // shared-memory dependence
// CHECK-NEXT: // T.copy  g.py:16:9
// CHECK: __syncthreads();  // shared-memory dependence
// CHECK-NEXT: // T.copy  g.py:17:9

tile.func @epilogue(%A: !tile.buffer<[256, 256], f16, global> loc("A"), %B: !tile.buffer<[256, 256], f16, global> loc("B"), %C: !tile.buffer<[256, 256], f32, global> loc("C")) {
  tile.kernel (%bx, %by) grid [4, 4] threads [128] {
    %A_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn> loc("A_s"("g.py":5:9))
    %B_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn> loc("B_s"("g.py":6:9))
    %C_s = tile.alloc : !tile.buffer<[64, 64], f32, shared.dyn> loc("C_s"("g.py":7:9))
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment> loc("acc"("g.py":8:9))
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    tile.pipelined %k = %c0 to %c8 stages 3 {
      %y = arith.muli %by, %c64 : index
      %x = arith.muli %bx, %c64 : index
      %kk = arith.muli %k, %c32 : index
      %At = tile.region %A[%y, %kk] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %At to %A_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn> loc("g.py":12:13)
      %Bt = tile.region %B[%x, %kk] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %Bt to %B_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn> loc("g.py":13:13)
      tile.gemm %A_s, %B_s, %acc {transpose_b} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment> loc("g.py":14:13)
    } loc("g.py":11:9)
    tile.copy %acc to %C_s : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, shared.dyn> loc("g.py":16:9)
    %y = arith.muli %by, %c64 : index
    %x = arith.muli %bx, %c64 : index
    %Ct = tile.region %C[%y, %x] : !tile.buffer<[256, 256], f32, global> to !tile.buffer<[64, 64], f32, global>
    tile.copy %C_s to %Ct : !tile.buffer<[64, 64], f32, shared.dyn> to !tile.buffer<[64, 64], f32, global> loc("g.py":17:9)
  } loc("g.py":3:5)
}
