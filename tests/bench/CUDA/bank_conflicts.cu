// bank_conflicts.cu - measures the shared-memory bank conflicts of the
// access patterns tlc's bank-conflict analysis reports, on a real GPU.
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Each case is one warp repeating one warp-wide shared-memory instruction
// whose lane -> address map is the generated code's (see
// compiler/lib/Dialect/Tile/Transforms/SharedAccesses.cpp):
//   acc-f32-*   mma.C accumulator stores: lane l writes 2 floats at row l / 4,
//               column 2 (l % 4) (8-byte st.shared), rows of 64 or 72 floats;
//   acc-f16-*   the same converted to f16 (4-byte st.shared), rows of 64 or
//               72 halves, or the runtime's row swizzle;
//   ldm-*       ldmatrix-like 16-byte row reads: lane l reads row l % 8 of
//               chunk column l / 8, rows of 64 halves, plain or swizzled;
//   staged-f32  the accumulator stores of the CUDA target's staged epilogue
//               store: rows of 68 floats (64 + 16 bytes of padding);
//   column-*    a T.Parallel loop spread flat over the threads writing a
//               tile's column: lane l at row l, rows of 32 or 33 floats
//               (4-byte st.shared).
// Printed per case: cycles per instruction (clock64 over 4096 unrolled
// repetitions, median of 5 runs) and the ratio to the conflict-free
// variant; ncu's l1tex__data_bank_conflicts_pipe_lsu_mem_shared counters
// give the extra wavefronts where ncu can read them.
//
// build: nvcc -O3 -arch=sm_90 -o bank_conflicts bank_conflicts.cu

#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <vector>

constexpr int kReps = 4096;

__device__ __forceinline__ int swizzled(int row, int col, int chunks, int elems) {
  int chunk = col / elems;
  int mask = chunks >= 8 ? (row & 7) : chunks == 4 ? ((row >> 1) & 3) : chunks == 2 ? ((row >> 2) & 1) : 0;
  return row * chunks * elems + (chunk ^ mask) * elems + col % elems;
}

/// Byte offset of lane `l`'s access in case `which`.
__device__ int laneOffset(int which, int l) {
  int row = l / 4, col = 2 * (l % 4);
  switch (which) {
  case 0: return (row * 64 + col) * 4;                  // acc-f32 unpadded
  case 1: return (row * 72 + col) * 4;                  // acc-f32 padded
  case 2: return (row * 64 + col) * 2;                  // acc-f16 unpadded
  case 3: return (row * 72 + col) * 2;                  // acc-f16 padded
  case 4: return swizzled(row, col, 8, 8) * 2;          // acc-f16 swizzled
  case 5: return ((l % 8) * 64 + (l / 8) * 8) * 2;      // ldm unswizzled
  case 6: return swizzled(l % 8, (l / 8) * 8, 8, 8) * 2; // ldm swizzled
  case 7: return (row * 68 + col) * 4;                  // staged f32
  case 8: return l * 32 * 4;                            // column, 32 floats
  default: return l * 33 * 4;                           // column, 33 floats
  }
}

__global__ void run(int which, int bytes, long long *cycles, int *sink) {
  __shared__ __align__(16) unsigned char smem[64 * 72 * 4];
  int l = threadIdx.x;
  for (int i = l; i < int(sizeof(smem)); i += 32)
    smem[i] = i;
  __syncwarp();
  unsigned addr = unsigned(__cvta_generic_to_shared(smem + laneOffset(which, l)));
  int acc = 0;
  long long t0 = clock64();
  if (bytes == 8) {
    float x = l, y = 0;
#pragma unroll 64
    for (int r = 0; r < kReps; ++r) {
      x += 1.0f;
      asm volatile("st.shared.v2.f32 [%0], {%1, %2};" ::"r"(addr), "f"(x), "f"(y));
    }
  } else if (bytes == 4) {
#pragma unroll 64
    for (int r = 0; r < kReps; ++r)
      asm volatile("st.shared.b32 [%0], %1;" ::"r"(addr), "r"(l + r));
  } else {
#pragma unroll 64
    for (int r = 0; r < kReps; ++r) {
      int a, b, c, d;
      asm volatile("ld.shared.v4.b32 {%0, %1, %2, %3}, [%4];"
                   : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "r"(addr));
      acc += a ^ d;
    }
  }
  long long t1 = clock64();
  __syncwarp();
  if (l == 0)
    *cycles = t1 - t0;
  sink[l] = acc + smem[l];
}

int main() {
  struct Case { const char *name; int which, bytes, baseline; };
  const Case cases[] = {
      {"acc-f32-unpadded (8-byte st.shared, rows of 64 floats)", 0, 8, 1},
      {"acc-f32-padded   (8-byte st.shared, rows of 72 floats)", 1, 8, 1},
      {"acc-f16-unpadded (4-byte st.shared, rows of 64 halves)", 2, 4, 3},
      {"acc-f16-padded   (4-byte st.shared, rows of 72 halves)", 3, 4, 3},
      {"acc-f16-swizzled (4-byte st.shared, row swizzle)      ", 4, 4, 3},
      {"ldm-unswizzled   (16-byte ld.shared, rows of 64 halves)", 5, 16, 6},
      {"ldm-swizzled     (16-byte ld.shared, row swizzle)      ", 6, 16, 6},
      {"staged-f32       (8-byte st.shared, rows of 68 floats)", 7, 8, 1},
      {"column-32        (4-byte st.shared, rows of 32 floats)", 8, 4, 9},
      {"column-33        (4-byte st.shared, rows of 33 floats)", 9, 4, 9},
  };
  long long *dCycles;
  int *dSink;
  cudaMalloc(&dCycles, sizeof(long long));
  cudaMalloc(&dSink, 32 * sizeof(int));
  double perInstr[10];
  for (const Case &c : cases) {
    std::vector<long long> runs;
    for (int k = 0; k < 6; ++k) {
      run<<<1, 32>>>(c.which, c.bytes, dCycles, dSink);
      long long cyc = 0;
      cudaMemcpy(&cyc, dCycles, sizeof(cyc), cudaMemcpyDeviceToHost);
      if (k)
        runs.push_back(cyc); // the first run warms up
    }
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) {
      std::printf("CUDA error: %s\n", cudaGetErrorString(e));
      return 1;
    }
    std::sort(runs.begin(), runs.end());
    perInstr[c.which] = double(runs[runs.size() / 2]) / kReps;
  }
  for (const Case &c : cases)
    std::printf("%s  %6.2f cycles/instr  x%.2f of the conflict-free variant\n",
                c.name, perInstr[c.which],
                perInstr[c.which] / perInstr[c.baseline]);
  return 0;
}
