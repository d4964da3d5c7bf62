// RUN: tlc-translate --tile-to-cuda %s | FileCheck %s

// A 64x64 tile of A * B^T on mma.sync (4 warps, 2 x 2 warp grid), fed by a
// 2-stage cp.async pipeline from swizzled shared tiles, then a row max
// (shuffles inside the quad of lanes that share a row, shared memory across
// the two warps along N), the row vector read in a 2-D T.Parallel, a
// fragment -> global copy of the row vector, T.use_swizzle, T.device_assert
// and T.print.

// Block rasterisation in panels of 2 rows of blocks.
// CHECK: // T.use_swizzle  g.py:9:9
// CHECK: const int by = panel * 2 + inPanel % panelWidth;
// CHECK-NEXT: const int bx = inPanel / panelWidth;
// Two stages of each 64 x 32 f16 tile (2 x 4 KiB), scratch after them.
// CHECK: half *A_s = reinterpret_cast<tlc::cuda::half *>(smem + 0);
// CHECK: half *B_s = reinterpret_cast<tlc::cuda::half *>(smem + 8192);
// 64 * 64 / 128 threads = 32 accumulator registers; each row of m is held by
// the 4 lanes of a quad in each of the 2 warps along N.
// CHECK: alignas(16) float acc[32];  // mma.C · 2×2 warps · 32 regs/thread
// CHECK: alignas(16) float m[4];  // mma.C row · 2×2 warps · 4 regs/thread · rep 8
// Prologue: stage 0 in flight before the loop. Every shape is static and
// divided by its tile: no bounds or alignment test around cp.async.
// CHECK: // T.Pipelined (num_stages = 2: cp.async into 2 shared-memory stages)  g.py:11:9
// CHECK: const int prologue = 0 + 0;
// CHECK-NOT: {{< 256|<= 256|% 8 == 0|} else {}}
// CHECK: tlc::cuda::cpAsync<16>(&A_s[tlc::cuda::swizzledIndex<4>(
// CHECK: tlc::cuda::cpAsyncCommit();
// The loop rotates its read and write stages (no `% stages`).
// CHECK-NEXT: int readStage = 0, writeStage = 1;
// One barrier per iteration: after the wait for this iteration's stage it
// also proves iteration k - 1 done with the stage the prefetch refills.
// CHECK-NEXT: for (int k = 0; k < 8; ++k) {
// CHECK-NEXT: tlc::cuda::cpAsyncWait<0>();  // stage of k landed
// CHECK-NEXT: __syncthreads();  // ... for every thread; iteration k - 1 is done with its stage
// CHECK-NEXT: const int ahead = k + 1;  // into the stage iteration k - 1 read
// CHECK: tlc::cuda::cpAsync<16>(&(B_s + writeStage * 2048)
// CHECK: tlc::cuda::cpAsyncCommit();
// No copy of the loop body runs synchronously any more.
// CHECK-NOT: copyVector
// CHECK: // T.gemm  g.py:14:13
// CHECK: const int wm = warp % 2, wn = warp / 2;  // warp grid 2 x 2
// A stored [M, K]: plain ldmatrix.x4; B stored [N, K] (transpose_b): plain
// ldmatrix.x4 over two n8 tiles. The K loop is unrolled: each address is a
// per-thread swizzled offset (one per chunk phase of the k-step) plus a
// constant (16 rows of 32 elements = 512 per m16/n16 tile).
// CHECK: // k-step 0
// CHECK: const int aOff0 = tlc::cuda::swizzledIndex<4>(wm * 32 + lane % 16, (lane / 16) * 8);
// CHECK-NEXT: tlc::cuda::ldmatrixX4(aFrag[0][0], aFrag[0][1], aFrag[0][2], aFrag[0][3], &(A_s + readStage * 2048)[aOff0]);
// CHECK-NEXT: tlc::cuda::ldmatrixX4(aFrag[1][0], aFrag[1][1], aFrag[1][2], aFrag[1][3], &(A_s + readStage * 2048)[aOff0 + 512]);
// CHECK-NEXT: const int bOff0 = tlc::cuda::swizzledIndex<4>(wn * 32 + lane % 8 + (lane / 16) * 8, ((lane / 8) % 2) * 8);
// CHECK-NEXT: tlc::cuda::ldmatrixX4(bFrag[0][0], bFrag[0][1], bFrag[1][0], bFrag[1][1], &(B_s + readStage * 2048)[bOff0]);
// CHECK-NEXT: tlc::cuda::ldmatrixX4(bFrag[2][0], bFrag[2][1], bFrag[3][0], bFrag[3][1], &(B_s + readStage * 2048)[bOff0 + 512]);
// CHECK: tlc::cuda::mmaM16N8K16<tlc::cuda::half>(&acc[mi * 16 + ni * 4], aFrag[mi], bFrag[ni]);
// The second k-step: columns 16..31, i.e. chunks 2 and 3 of the row.
// CHECK: // k-step 1
// CHECK: const int aOff2 = tlc::cuda::swizzledIndex<4>(wm * 32 + lane % 16, ((lane / 16) * 8) + 16);
// CHECK: const int bOff2 = tlc::cuda::swizzledIndex<4>(wn * 32 + lane % 8 + (lane / 16) * 8, (((lane / 8) % 2) * 8) + 16);
// CHECK-NEXT: tlc::cuda::ldmatrixX4(bFrag_1[0][0], bFrag_1[0][1], bFrag_1[1][0], bFrag_1[1][1], &(B_s + readStage * 2048)[bOff2]);
// CHECK-NOT: k-step 2
// CHECK-NOT: __syncthreads();
// CHECK: readStage = readStage + 1 == 2 ? 0 : readStage + 1;
// CHECK-NEXT: writeStage = writeStage + 1 == 2 ? 0 : writeStage + 1;
// CHECK: tlc::cuda::cpAsyncWaitAll();
// CHECK: // T.reduce_max  g.py:15:9
// CHECK: shuffleXor(part[k_1], 1)
// CHECK: shuffleXor(part[k_1], 2)
// CHECK-NOT: shuffleXor
// CHECK: __syncthreads();  // scratch free
// CHECK: scratch[k_1 * 128 + tid] = part[k_1];
// CHECK: for (int p = 0; p <= 64; ++p) {
// CHECK: m[k_1] = part[k_1];
// The row vector inside the 2-D loop: a register chosen per unrolled r.
// CHECK: // T.Parallel  g.py:16:9
// CHECK: const float {{.*}} = m[((r_2 >> 1) & 1) + ((r_2 >> 4) & 1) * 2];
// One replica (lanes with tid % 4 == 0 of warps with wn == 0) writes M.
// CHECK: // T.copy  g.py:18:9
// CHECK: if ((tid & 67) == 0) {
// CHECK: // T.device_assert  g.py:19:9
// CHECK: printf("g.py:19: device assertion failed: bx in range (block %d,%d,%d thread %d)\n"
// CHECK-NEXT: __trap();
// CHECK: // T.print  g.py:20:9
// CHECK: printf("g.py:20: acc acc[%lld, %lld] = %g (thread %d)\n", (long long)i0_{{[0-9]+}}, (long long)i1_{{[0-9]+}},

tile.func @gemm_rowmax(%A: !tile.buffer<[256, 256], f16, global> loc("A"), %B: !tile.buffer<[256, 256], f16, global> loc("B"), %M: !tile.buffer<[256], f32, global> loc("M")) {
  tile.kernel (%bx, %by) grid [4, 4] threads [128] {
    %A_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn> loc("A_s"("g.py":5:9))
    %B_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn> loc("B_s"("g.py":6:9))
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment> loc("acc"("g.py":7:9))
    %m = tile.alloc : !tile.buffer<[64], f32, local.fragment> loc("m"("g.py":8:9))
    tile.use_swizzle 2 row loc("g.py":9:9)
    tile.clear %acc : !tile.buffer<[64, 64], f32, local.fragment> loc("g.py":10:9)
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    tile.pipelined %k = %c0 to %c8 stages 2 {
      %y = arith.muli %by, %c64 : index
      %x = arith.muli %bx, %c64 : index
      %kk = arith.muli %k, %c32 : index
      %At = tile.region %A[%y, %kk] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %At to %A_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn> loc("g.py":12:13)
      %Bt = tile.region %B[%x, %kk] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %Bt to %B_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn> loc("g.py":13:13)
      tile.gemm %A_s, %B_s, %acc {transpose_b} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment> loc("g.py":14:13)
    } loc("g.py":11:9)
    tile.reduce max %acc to %m dim = 1 clear : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64], f32, local.fragment> loc("g.py":15:9)
    tile.parallel (%i, %j) in [64, 64] {
      %a = tile.load %acc[%i, %j] : !tile.buffer<[64, 64], f32, local.fragment>
      %r = tile.load %m[%i] : !tile.buffer<[64], f32, local.fragment>
      %d = arith.subf %a, %r : f32
      tile.store %d, %acc[%i, %j] : !tile.buffer<[64, 64], f32, local.fragment>
    } loc("g.py":16:9)
    %y2 = arith.muli %by, %c64 : index
    %Mt = tile.region %M[%y2] : !tile.buffer<[256], f32, global> to !tile.buffer<[64], f32, global>
    tile.copy %m to %Mt : !tile.buffer<[64], f32, local.fragment> to !tile.buffer<[64], f32, global> loc("g.py":18:9)
    %ok = arith.cmpi slt, %bx, %c8 : index
    tile.device_assert %ok, "bx in range" loc("g.py":19:9)
    tile.print "acc" %acc : !tile.buffer<[64, 64], f32, local.fragment> loc("g.py":20:9)
  } loc("g.py":3:5)
}
