# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# G: W4A16 dequantising GEMM, bit ops (T.shift_right/bitwise_and/or, >>, &, T.reinterpret).
# Shape: @tilelang.autotune(itertools.product configs) + lazy @tilelang.jit + @T.macro.
import itertools

import tilelang
import tilelang.language as T


def get_configs():
    space = dict(block_M=[64, 128], block_N=[128], block_K=[64], num_stages=[2, 3], threads=[128, 256])
    return [dict(zip(space, values)) for values in itertools.product(*space.values())]


@tilelang.autotune(configs=get_configs(), warmup=5, rep=20)
@tilelang.jit(out_idx=[-1])
def w4a16_gemm(M, N, K, group_size=128, block_M=128, block_N=128, block_K=64, num_stages=2, threads=128):
    assert K % group_size == 0 and group_size % block_K == 0
    num_bits = 4
    per_byte = 8 // num_bits

    @T.macro
    def dequant(packed: T.SharedBuffer((block_N, block_K // 2), T.uint8), out: T.SharedBuffer((block_N, block_K), T.float16),
                scale_row: T.Tensor((N, K // group_size), T.float16), n0, k0):
        for i, j in T.Parallel(block_N, block_K):
            byte = packed[i, j // per_byte]
            nib = T.bitwise_and(T.shift_right(byte, T.cast((j % per_byte) * num_bits, T.uint8)), T.uint8(0xF))
            # exponent trick: 0x6400 | nib is 1024 + nib in fp16
            biased = T.reinterpret(T.bitwise_or(T.cast(nib, T.uint16), T.uint16(0x6400)), T.float16)
            out[i, j] = (biased - T.float16(1032)) * scale_row[n0 + i, (k0 + j) // group_size]

    @T.prim_func
    def main(
        A: T.Tensor((M, K), T.float16),
        Bq: T.Tensor((N, K // per_byte), T.uint8),
        Scale: T.Tensor((N, K // group_size), T.float16),
        C: T.Tensor((M, N), T.float16),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), T.float16)
            Bq_shared = T.alloc_shared((block_N, block_K // per_byte), T.uint8)
            B_shared = T.alloc_shared((block_N, block_K), T.float16)
            C_local = T.alloc_fragment((block_M, block_N), T.float32)
            T.clear(C_local)
            for ko in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                T.copy(A[by * block_M, ko * block_K], A_shared)
                T.copy(Bq[bx * block_N, ko * (block_K // per_byte)], Bq_shared)
                dequant(Bq_shared, B_shared, Scale, bx * block_N, ko * block_K)
                T.gemm(A_shared, B_shared, C_local, transpose_B=True)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main


if __name__ == "__main__":
    best = w4a16_gemm(4096, 4096, 4096)
    fixed = w4a16_gemm(1024, 2048, 4096, block_M=64, block_N=128, block_K=64, num_stages=3, threads=128)

# The tuned call is analysed with the first config of the search space.
# CHECK: "instance":"w4a16_gemm(4096, 4096, 4096, block_M=64, block_N=128, block_K=64, num_stages=2, threads=128)","name":"A","kind":"tensor","shape":[4096,4096],"dtype":"float16","scope":"global","layout":null
# CHECK: "name":"Bq","kind":"tensor","shape":[4096,2048],"dtype":"uint8","scope":"global","layout":null
# CHECK: "name":"A_shared","kind":"buffer","shape":[64,64],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"Bq_shared","kind":"buffer","shape":[128,32],"dtype":"uint8","scope":"shared.dyn","layout":"linear"
# CHECK: "name":"B_shared","kind":"buffer","shape":[128,64],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"C_local","kind":"buffer","shape":[64,128],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C · 4×1 warps · 64 regs/thread"
# CHECK: "name":"ko","kind":"pipeline","shape":[64],"dtype":null,"scope":null,"layout":null
# The explicit call bypasses tuning.
# CHECK: "instance":"w4a16_gemm(1024, 2048, 4096, block_M=64, block_N=128, block_K=64, num_stages=3, threads=128)","name":"A","kind":"tensor","shape":[1024,4096]
# CHECK: "name":"A_shared","kind":"buffer","shape":[64,64],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"C_local","kind":"buffer","shape":[64,128],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C · 4×1 warps · 64 regs/thread"
