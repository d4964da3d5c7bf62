# Weight-only int4 GEMM ("W4A16"): C = A @ dequant(B)^T where A (M, K) is
# float16 and B packs two signed 4-bit weights per byte as uint8 (N, K // 2)
# (low nibble = even k), each stored with an offset of 8, and Scale
# (N, ceil(K / group_size)) holds a float16 scale per group of group_size
# weights along K: W[n, k] = (nibble(n, k) - 8) * Scale[n, k // group_size].
#
# "@T.prim_func + tilelang.compile" style. A @T.macro unpacks a shared tile of
# packed weights with shifts and masks into a float16 tile, which then feeds
# T.gemm(transpose_B=True). The A tile gets an explicit swizzled layout via
# T.annotate_layout.

import argparse

import tilelang
import tilelang.language as T
import torch
from tilelang.layout import make_swizzled_layout


def dequant_matmul(M, N, K, group_size=128, block_M=128, block_N=128, block_K=64, num_stages=2, threads=128):
    in_dtype = T.float16
    storage_dtype = T.uint8
    accum_dtype = T.float32
    assert K % 2 == 0, "two int4 weights per byte"
    assert block_K % 2 == 0 and group_size % 2 == 0
    num_groups = tilelang.cdiv(K, group_size)

    @T.macro
    def unpack_int4(B_packed_shared, Scale, B_dequant, k, bx):
        for i, j in T.Parallel(block_N, block_K):
            byte = B_packed_shared[i, j // 2]
            nibble = (byte >> ((j % 2) * 4)) & 0xF
            B_dequant[i, j] = (T.cast(nibble, in_dtype) - T.cast(8, in_dtype)) * Scale[
                bx * block_N + i, (k * block_K + j) // group_size
            ]

    @T.prim_func
    def main(
        A: T.Tensor((M, K), in_dtype),
        B: T.Tensor((N, K // 2), storage_dtype),
        Scale: T.Tensor((N, num_groups), in_dtype),
        C: T.Tensor((M, N), in_dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), in_dtype)
            B_packed_shared = T.alloc_shared((block_N, block_K // 2), storage_dtype)
            B_dequant = T.alloc_fragment((block_N, block_K), in_dtype)
            B_dequant_shared = T.alloc_shared((block_N, block_K), in_dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)

            T.annotate_layout({A_shared: make_swizzled_layout(A_shared)})
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[bx * block_N, k * block_K // 2], B_packed_shared)
                unpack_int4(B_packed_shared, Scale, B_dequant, k, bx)
                T.copy(B_dequant, B_dequant_shared)
                T.gemm(A_shared, B_dequant_shared, C_local, transpose_B=True)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main


def pack_int4(w):
    """w: int tensor (N, K) with values in [-8, 7] -> uint8 (N, K // 2)."""
    u = (w + 8).to(torch.uint8)
    return u[:, 0::2] | (u[:, 1::2] << 4)


def ref_program(a, w, scale, group_size):
    s = scale.float().repeat_interleave(group_size, dim=1)[:, : w.shape[1]]
    return (a.float() @ (w.float() * s).T).to(torch.float16)


def main():
    parser = argparse.ArgumentParser(description="W4A16 dequantize GEMM")
    parser.add_argument("--m", type=int, default=256)
    parser.add_argument("--n", type=int, default=4096)
    parser.add_argument("--k", type=int, default=4096)
    parser.add_argument("--group_size", type=int, default=128)
    args = parser.parse_args()

    func = dequant_matmul(args.m, args.n, args.k, group_size=args.group_size)
    kernel = tilelang.compile(func, out_idx=[3])

    a = torch.randn(args.m, args.k, dtype=torch.float16, device="cuda")
    w = torch.randint(-8, 8, (args.n, args.k), dtype=torch.int32, device="cuda")
    scale = (torch.rand(args.n, tilelang.cdiv(args.k, args.group_size), device="cuda") * 0.1).to(torch.float16)
    c = kernel(a, pack_int4(w), scale)
    torch.testing.assert_close(c, ref_program(a, w, scale, args.group_size), rtol=2e-2, atol=2e-2)
    print("dequant_gemm: all checks passed")


if __name__ == "__main__":
    main()
