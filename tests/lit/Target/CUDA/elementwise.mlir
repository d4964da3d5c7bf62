// RUN: tlc-translate --tile-to-cuda %s | FileCheck %s --check-prefix=CUDA
// RUN: tlc-translate --tile-to-cuda-lines %s | FileCheck %s --check-prefix=LINES
// RUN: tlc-translate --tile-to-cuda-sourcemap %s | FileCheck %s --check-prefix=MAP

// The elementwise_add example (block 32 x 128, 128 threads, f32) as Tile IR:
// copies global -> shared, a T.Parallel over a fragment, fragment -> global.

// CUDA: #include "tlc_device/cuda.h"
// CUDA-LABEL: // T.Kernel  elementwise_add.py:22:5
// CUDA-NEXT: extern "C" __global__ void __launch_bounds__(128) elementwise_add_kernel(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, long long M, long long N)
// CUDA: const int tid = threadIdx.x;
// CUDA-NEXT: extern __shared__ __align__(128) unsigned char smem[];
// Coordinates are 32-bit.
// CUDA-NEXT: const int bx = blockIdx.x;
// CUDA-NEXT: const int by = blockIdx.y;
// CUDA: float *A_shared = reinterpret_cast<float *>(smem + 0);
// CUDA: float *B_shared = reinterpret_cast<float *>(smem + 16384);
// The fragment takes the default partition (TLCLayout defaultFragment):
// 4-element chunks, consecutive chunks on consecutive threads.
// CUDA: alignas(16) float C_local[32];  // parallel · 32 regs/thread
// First copy: 16-byte vectors when the chunk is in bounds and aligned, else
// guarded elements (zero outside A). The shapes are symbolic: the guards
// and the global alignment test stay, the global element offset is 64-bit,
// and the shared side's alignment is proven (no test).
// CUDA: // T.copy  elementwise_add.py:27:9
// CUDA: for (int c = 0; c < 8; ++c) {
// CUDA-NEXT: const int q = c * 128 + tid;  // chunk
// CUDA: if ([[ROW:.*]] < M && [[COL:.*]] + 4 <= N && (((long long)[[ROW]]) * N + [[COL]]) % 4 == 0) {
// CUDA-NEXT: tlc::cuda::copyVector<16>(&A_shared[{{.*}}], &A[((long long)[[ROW]]) * N + [[COL]]]);
// CUDA-NEXT: } else {
// CUDA: A_shared[{{.*}}] = (({{.*}} < M && {{.*}} < N) ? A[{{.*}}] : 0);
// Both copies write shared memory that the loop reads: one barrier.
// CUDA: // T.copy  elementwise_add.py:28:9
// CUDA: __syncthreads();  // shared-memory dependence
// CUDA-NEXT: // T.Parallel  elementwise_add.py:29:9
// CUDA: for (int r = 0; r < 32; ++r) {
// CUDA-NEXT: const int [[I:i0_.*]] = ((tid >> 5) & 3) + ((r >> 2) & 7) * 4;
// CUDA-NEXT: const int [[J:i1.*]] = (tid & 31) * 4 + (r & 3);
// CUDA-NEXT: const float {{.*}} = A_shared[([[I]]) * 128 + [[J]]];
// CUDA: const float [[SUM:.*]] = ({{.*}} + {{.*}});
// CUDA-NEXT: C_local[r] = [[SUM]];
// CUDA: // T.copy  elementwise_add.py:31:9
// CUDA: for (int [[R:r_.*]] = 0; [[R]] < 32; [[R]] += 4) {
// CUDA: tlc::cuda::copyVector<16>(&C[{{.*}}], &C_local[[[R]]]);
// CUDA: if ({{.*}} < M && {{.*}} < N) C[{{.*}}] = C_local[[[R]] + e_2];

// LINES: #line 22 "elementwise_add.py"
// LINES-NEXT: extern "C" __global__
// LINES: #line 29 "elementwise_add.py"
// LINES-NOT: // T.Parallel

// MAP: kernel elementwise_add_kernel threads 128 smem 32768
// MAP: 5 -> elementwise_add.py:22:5

#loc_kernel = loc("elementwise_add.py":22:5)
#loc_copyA = loc("elementwise_add.py":27:9)
#loc_copyB = loc("elementwise_add.py":28:9)
#loc_par = loc("elementwise_add.py":29:9)
#loc_add = loc("elementwise_add.py":30:29)
#loc_copyC = loc("elementwise_add.py":31:9)
tile.func @elementwise_add(%A: !tile.buffer<[M, N], f32, global> loc("A"),
                           %B: !tile.buffer<[M, N], f32, global> loc("B"),
                           %C: !tile.buffer<[M, N], f32, global> loc("C"))
    symbols(M: const, N: const) {
  %M = tile.symbol "M"
  %N = tile.symbol "N"
  %c127 = arith.constant 127 : index
  %c128 = arith.constant 128 : index
  %c31 = arith.constant 31 : index
  %c32 = arith.constant 32 : index
  %n1 = arith.addi %N, %c127 : index
  %gx = arith.divsi %n1, %c128 : index
  %m1 = arith.addi %M, %c31 : index
  %gy = arith.divsi %m1, %c32 : index
  tile.kernel (%bx, %by) grid [%gx, %gy] threads [128] {
    %A_shared = tile.alloc : !tile.buffer<[32, 128], f32, shared.dyn> loc("A_shared"("elementwise_add.py":23:9))
    %B_shared = tile.alloc : !tile.buffer<[32, 128], f32, shared.dyn> loc("B_shared"("elementwise_add.py":24:9))
    %C_local = tile.alloc : !tile.buffer<[32, 128], f32, local.fragment> loc("C_local"("elementwise_add.py":25:9))
    %y = arith.muli %by, %c32 : index
    %x = arith.muli %bx, %c128 : index
    %At = tile.region %A[%y, %x] : !tile.buffer<[M, N], f32, global> to !tile.buffer<[32, 128], f32, global>
    tile.copy %At to %A_shared : !tile.buffer<[32, 128], f32, global> to !tile.buffer<[32, 128], f32, shared.dyn> loc(#loc_copyA)
    %Bt = tile.region %B[%y, %x] : !tile.buffer<[M, N], f32, global> to !tile.buffer<[32, 128], f32, global>
    tile.copy %Bt to %B_shared : !tile.buffer<[32, 128], f32, global> to !tile.buffer<[32, 128], f32, shared.dyn> loc(#loc_copyB)
    tile.parallel (%i, %j) in [32, 128] {
      %a = tile.load %A_shared[%i, %j] : !tile.buffer<[32, 128], f32, shared.dyn>
      %b = tile.load %B_shared[%i, %j] : !tile.buffer<[32, 128], f32, shared.dyn>
      %s = arith.addf %a, %b : f32 loc(#loc_add)
      tile.store %s, %C_local[%i, %j] : !tile.buffer<[32, 128], f32, local.fragment>
    } loc(#loc_par)
    %Ct = tile.region %C[%y, %x] : !tile.buffer<[M, N], f32, global> to !tile.buffer<[32, 128], f32, global>
    tile.copy %C_local to %Ct : !tile.buffer<[32, 128], f32, local.fragment> to !tile.buffer<[32, 128], f32, global> loc(#loc_copyC)
  } loc(#loc_kernel)
}
