// RUN: tlc-translate --tile-to-cuda %s | FileCheck %s

// A fragment -> global copy whose direct stores would be 4 bytes wide (an
// mma accumulator holds 2 consecutive columns per row, converted to f16
// and packed) goes through a
// padded shared tile made of buffers no later statement uses, then 16-byte
// row stores. If a later statement still uses them, or the kernel has no
// shared memory, the copy stays direct.

// CHECK-LABEL: void __launch_bounds__(128) staged_kernel(
// CHECK: half *A_s = reinterpret_cast<tlc::cuda::half *>(smem + 0);
// CHECK: half *B_s = reinterpret_cast<tlc::cuda::half *>(smem + 8192);
// CHECK: tlc::cuda::cpAsyncWaitAll();
// CHECK: // T.copy  g.py:16:9
// The two stages of A_s and B_s (16 KiB) hold the 64 x (64 + 8) halves.
// CHECK-NEXT: // through shared memory (A_s, B_s, unused from here on), then 16-byte row stores
// CHECK-NEXT: __syncthreads();  // the area's last readers are done
// CHECK: tlc::cuda::half *staged = reinterpret_cast<tlc::cuda::half *>(smem + 0);
// CHECK: packed[0] = tlc::cuda::toHalf(acc[r_{{[0-9]+}} + 0]);
// CHECK-NEXT: packed[1] = tlc::cuda::toHalf(acc[r_{{[0-9]+}} + 1]);
// CHECK-NEXT: tlc::cuda::copyVector<4>(&staged[i0_{{[0-9]+}} * 72 + i1_{{[0-9]+}}], packed);
// CHECK: __syncthreads();
// 64 rows x 8 chunks = 512 chunks, 4 per thread; all in bounds, aligned.
// CHECK: for (int c_{{[0-9]+}} = 0; c_{{[0-9]+}} < 4; ++c_{{[0-9]+}}) {
// CHECK: const int row = q_{{[0-9]+}} / 8;
// CHECK-NEXT: const int col = (q_{{[0-9]+}} % 8) * 8;
// CHECK-NEXT: tlc::cuda::copyVector<16>(&C[((t{{(_[0-9]+)?}} + row)) * 256 + (t{{(_[0-9]+)?}} + col)], &staged[row * 72 + col]);
// CHECK-NOT: staged
// CHECK-LABEL: void __launch_bounds__(128) still_used_kernel(
tile.func @staged(%A: !tile.buffer<[256, 256], f16, global> loc("A"), %B: !tile.buffer<[256, 256], f16, global> loc("B"), %C: !tile.buffer<[256, 256], f16, global> loc("C")) {
  tile.kernel (%bx, %by) grid [4, 4] threads [128] {
    %A_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn> loc("A_s"("g.py":5:9))
    %B_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn> loc("B_s"("g.py":6:9))
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment> loc("acc"("g.py":7:9))
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %y = arith.muli %by, %c64 : index
    %x = arith.muli %bx, %c64 : index
    tile.pipelined %k = %c0 to %c8 stages 2 {
      %kk = arith.muli %k, %c32 : index
      %At = tile.region %A[%y, %kk] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %At to %A_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn> loc("g.py":12:13)
      %Bt = tile.region %B[%x, %kk] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %Bt to %B_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn> loc("g.py":13:13)
      tile.gemm %A_s, %B_s, %acc {transpose_b} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment> loc("g.py":14:13)
    } loc("g.py":11:9)
    %Ct = tile.region %C[%y, %x] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 64], f16, global>
    tile.copy %acc to %Ct : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f16, global> loc("g.py":16:9)
  } loc("g.py":3:5)
}

// A_s is read after the copy: not dead, so the copy stores directly.
// CHECK: // T.copy  g.py:16:9
// CHECK-NOT: through shared memory
// CHECK: packed{{(_[0-9]+)?}}[1] = tlc::cuda::toHalf(acc[
// CHECK-NEXT: tlc::cuda::copyVector<4>(&C[
// CHECK: // T.copy  g.py:17:9
// CHECK-LABEL: void __launch_bounds__(128) too_small_kernel(
tile.func @still_used(%A: !tile.buffer<[256, 256], f16, global> loc("A"), %B: !tile.buffer<[256, 256], f16, global> loc("B"), %C: !tile.buffer<[256, 256], f16, global> loc("C")) {
  tile.kernel (%bx, %by) grid [4, 4] threads [128] {
    %A_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn> loc("A_s"("g.py":5:9))
    %B_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn> loc("B_s"("g.py":6:9))
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment> loc("acc"("g.py":7:9))
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %y = arith.muli %by, %c64 : index
    %x = arith.muli %bx, %c64 : index
    tile.pipelined %k = %c0 to %c8 stages 2 {
      %kk = arith.muli %k, %c32 : index
      %At = tile.region %A[%y, %kk] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %At to %A_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn> loc("g.py":12:13)
      %Bt = tile.region %B[%x, %kk] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %Bt to %B_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn> loc("g.py":13:13)
      tile.gemm %A_s, %B_s, %acc {transpose_b} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment> loc("g.py":14:13)
    } loc("g.py":11:9)
    %Ct = tile.region %C[%y, %x] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 64], f16, global>
    tile.copy %acc to %Ct : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f16, global> loc("g.py":16:9)
    %At2 = tile.region %A[%y, %c0] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
    tile.copy %A_s to %At2 : !tile.buffer<[64, 32], f16, shared.dyn> to !tile.buffer<[64, 32], f16, global> loc("g.py":17:9)
  } loc("g.py":3:5)
}

// Without a gemm the accumulator gets the default layout (4 consecutive
// columns per thread: 8-byte stores). Two unused 4 KiB buffers are dead
// but hold less than the 9 KiB tile: direct stores.
// CHECK: // T.copy  g.py:22:9
// CHECK-NOT: through shared memory
// CHECK: packed{{(_[0-9]+)?}}[3] = tlc::cuda::toHalf(acc[
// CHECK-NEXT: tlc::cuda::copyVector<8>(&C[
// CHECK-LABEL: void __launch_bounds__(128) no_shared_kernel(
tile.func @too_small(%C: !tile.buffer<[256, 256], f16, global> loc("C")) {
  tile.kernel (%bx, %by) grid [4, 4] threads [128] {
    %A_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn> loc("A_s"("g.py":5:9))
    %B_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn> loc("B_s"("g.py":6:9))
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment> loc("acc"("g.py":7:9))
    %c64 = arith.constant 64 : index
    %y = arith.muli %by, %c64 : index
    %x = arith.muli %bx, %c64 : index
    tile.clear %acc : !tile.buffer<[64, 64], f32, local.fragment> loc("g.py":20:9)
    %Ct = tile.region %C[%y, %x] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 64], f16, global>
    tile.copy %acc to %Ct : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f16, global> loc("g.py":22:9)
  } loc("g.py":3:5)
}

// No shared memory at all: direct stores.
// CHECK: // T.copy  g.py:22:9
// CHECK-NOT: through shared memory
// CHECK: packed{{(_[0-9]+)?}}[3] = tlc::cuda::toHalf(acc[
// CHECK-NEXT: tlc::cuda::copyVector<8>(&C[
tile.func @no_shared(%C: !tile.buffer<[256, 256], f16, global> loc("C")) {
  tile.kernel (%bx, %by) grid [4, 4] threads [128] {
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment> loc("acc"("g.py":7:9))
    %c64 = arith.constant 64 : index
    %y = arith.muli %by, %c64 : index
    %x = arith.muli %bx, %c64 : index
    tile.clear %acc : !tile.buffer<[64, 64], f32, local.fragment> loc("g.py":20:9)
    %Ct = tile.region %C[%y, %x] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 64], f16, global>
    tile.copy %acc to %Ct : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f16, global> loc("g.py":22:9)
  } loc("g.py":3:5)
}
