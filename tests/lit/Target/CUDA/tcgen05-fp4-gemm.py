# RUN: tlc-build --check %s
# RUN: tlc-build --target=cuda:sm_100a --emit=cuda --no-source-lines %s | FileCheck %s
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --kernel=matmul_fp4 --seed 3 --save %t/a > /dev/null
# RUN: %python %S/Inputs/fp4_gemm_check.py %t/a | FileCheck %s --check-prefix=REF
# RUN: tlc-run %t/cpu --kernel=matmul_fp4_1 --seed 4 --save %t/b > /dev/null
# RUN: %python %S/Inputs/fp4_gemm_check.py %t/b | FileCheck %s --check-prefix=REF
# REF: ok
# REF-NOT: MISMATCH
#
# Blackwell fp4 (float4_e2m1fn) GEMMs into tensor memory in the style of
# the public gemm_sm100/gemm_tcgen5mma_fp4 example: packed fp4 operands
# copied from global memory into shared tiles, T.tcgen05_gemm with
# .kind::f8f6f4, the accumulator read back through a fragment. There is no
# Blackwell GPU here and the sim device does not simulate tcgen05: the
# CUDA code is checked as text and by nvcc -arch=sm_100a
# (tcgen05-gemm-nvcc.test); the CPU target runs both programs at ragged
# sizes (M, N and K not multiples of the tiles) against NumPy, which
# decodes the fp4 codes from the OCP MX spec's bit fields.
#
# Shared memory: tcgen05.mma reads 4-bit operands in the padded form (PTX
# ISA, tcgen05 "packed / unpacked" sub-byte layouts): each 16-element
# chunk of a K-major row takes 16 bytes, its 16 codes packed in the first
# 8 (element 2k in the low nibble) and 8 bytes of padding; descriptors and
# swizzles then see one byte an element, as for e4m3. So the tiles are
# stored in the 8-bit panels (panelSwizzledIndex<8, 16, ...>: 128-byte
# swizzle for 128-element rows, 64-byte for 64) and element slot s is nibble
# (s & ~15) * 2 + (s & 15) (tlc::fp4::paddedNibble).
#
# The instruction descriptors, from the PTX ISA's table for .kind::f8f6f4
# (D F32 = 1 << 4; A type bits 7-9, B type bits 10-12: E4M3 0, E2M1 5;
# both K-major: transpose bits 15 / 16 clear; N >> 3 << 17, M >> 4 << 24):
#   fp4 x fp4, M 128, N 64:   0x10 | 5 << 7 | 5 << 10 | 8 << 17 | 8 << 24
#                           = 0x10 | 0x280 | 0x1400 | 0x100000 | 0x8000000
#                           = 0x08101690
#   fp4 x fp4, M 128, N 128:  0x10 | 0x280 | 0x1400 | 16 << 17 | 8 << 24
#                           = 0x08201690
# The shared memory descriptors (the fixed 1 << 46 = 0x400000000000, LBO
# 16 >> 4 = 1 << 16 = 0x10000 (unused for K-major swizzles), SBO = 8 rows
# of the swizzle's width, >> 4, << 32, swizzle bits 61-63):
#   128-byte rows: SBO 1024 >> 4 = 64 << 32 = 0x4000000000, 128B = 2 << 61
#     = 0x4000000000000000 | 0x400000000000 | 0x4000000000 | 0x10000
#     = 0x4000404000010000
#   64-byte rows:  SBO 512 >> 4 = 32 << 32 = 0x2000000000, 64B = 4 << 61
#     = 0x8000000000000000 | 0x400000000000 | 0x2000000000 | 0x10000
#     = 0x8000402000010000
# K = 32 elements a step = 32 byte slots: the start address + 2 (>> 4).
#
# The copies: a 16-code chunk whose source starts on a byte multiple of 8
# inside the tensor is one 8-byte copy into the packed half of its slot
# chunk; others (the ragged edges) go element by element.
# CHECK-LABEL: matmul_fp4_kernel(
# CHECK: if (((({{.*}})) * 320 + ({{.*}})) % 16 == 0 && ({{.*}}) < 200 && ({{.*}}) + 16 <= 320) {
# CHECK-NEXT: *reinterpret_cast<uint2 *>(reinterpret_cast<uint8_t *>(A_shared) + (tlc::cuda::panelSwizzledIndex<8, 16, 128, 128>(0, [[R:i0[_0-9]*]], [[C:i1[_0-9]*]]))) = *reinterpret_cast<const uint2 *>(reinterpret_cast<const uint8_t *>(A) + (((t{{[_0-9]*}} + [[R]])) * 320 + (t{{[_0-9]*}} + [[C]])) / 2);
# CHECK-NEXT: } else {
# CHECK: tlc::fp4::e2m1At<true>(A_shared, tlc::fp4::paddedNibble(tlc::cuda::panelSwizzledIndex<8, 16, 128, 128>(
# CHECK: tlc::fp4::e2m1At<true>(B_shared, tlc::fp4::paddedNibble(tlc::cuda::panelSwizzledIndex<8, 16, 64, 128>(
# CHECK: tcgen05SmemDescriptor(A_shared, 0x4000404000010000ull)
# CHECK: tcgen05SmemDescriptor(B_shared, 0x4000404000010000ull)
# CHECK: tlc::cuda::tcgen05MmaSS<tlc::cuda::kTcgen05F8F6F4>(C_tmem + 0, aDesc + 0, bDesc + 0, 0x08101690u, ({{.*}}) ? 0u : 1u);
# CHECK: tlc::cuda::tcgen05MmaSS<tlc::cuda::kTcgen05F8F6F4>(C_tmem + 0, aDesc + 2, bDesc + 2, 0x08101690u, 1u);
# CHECK: tlc::cuda::tcgen05MmaSS<tlc::cuda::kTcgen05F8F6F4>(C_tmem + 0, aDesc + 6, bDesc + 6, 0x08101690u, 1u);
# CHECK-NOT: tcgen05MmaSS
# CHECK: tlc::cuda::tcgen05Commit(
# CHECK-LABEL: matmul_fp4_1_kernel(
# CHECK: tlc::fp4::e2m1At<true>(A_shared, tlc::fp4::paddedNibble(tlc::cuda::panelSwizzledIndex<4, 16, 128, 64>(
# CHECK: tcgen05SmemDescriptor(A_shared, 0x8000402000010000ull)
# CHECK: tlc::cuda::tcgen05MmaSS<tlc::cuda::kTcgen05F8F6F4>(C_tmem + 0, aDesc + 0, bDesc + 0, 0x08201690u, ({{.*}}) ? 0u : 1u);
# CHECK: tlc::cuda::tcgen05MmaSS<tlc::cuda::kTcgen05F8F6F4>(C_tmem + 0, aDesc + 2, bDesc + 2, 0x08201690u, 1u);
# CHECK-NOT: tcgen05MmaSS
import tilelang
import tilelang.language as T


def matmul_fp4(M, N, K, block_M, block_N, block_K, threads=128):

    @T.prim_func
    def main(A: T.Tensor((M, K), T.float4_e2m1fn), B: T.Tensor((N, K), T.float4_e2m1fn),
             C: T.Tensor((M, N), T.float32)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), T.float4_e2m1fn)
            B_shared = T.alloc_shared((block_N, block_K), T.float4_e2m1fn)
            C_tmem = T.alloc_tmem([block_M, block_N], T.float32)
            mbar = T.alloc_barrier(1)
            C_local = T.alloc_fragment((block_M, block_N), T.float32)
            C_shared = T.alloc_shared((block_M, block_N), T.float32)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=1):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[bx * block_N, k * block_K], B_shared)
                T.tcgen05_gemm(A_shared, B_shared, C_tmem, transpose_A=False, transpose_B=True,
                               mbar=mbar, clear_accum=(k == 0))
                T.mbarrier_wait_parity(mbar, k % 2)
            T.copy(C_tmem, C_local)
            T.copy(C_local, C_shared)
            T.copy(C_shared, C[by * block_M, bx * block_N])

    return main


fp4_gemm = tilelang.compile(matmul_fp4(200, 72, 320, 128, 64, 128), out_idx=[2], target="cuda")
fp4_gemm_k64 = tilelang.compile(matmul_fp4(136, 200, 160, 128, 128, 64), out_idx=[2], target="cuda")
