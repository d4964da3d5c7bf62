# GEMM epilogues written element-wise by T.Parallel into an LDS tile, then
# copied to global memory: a lane of the CDNA accumulator layouts holds
# runs of 4 consecutive columns, which the HIP printer stores as one
# ds_write_b128 (f32) or ds_write_b64 (f16) where the tile keeps them
# consecutive and aligned (HIPEmitterParallelStore.cpp).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def epilogue(M, N, K, block_M=64, block_N=64, block_K=32, pad=0, mode="scale",
             in_dtype=T.float16, out_dtype=T.float32):
    @T.prim_func
    def main(A: T.Tensor((M, K), in_dtype), B: T.Tensor((K, N), in_dtype),
             C: T.Tensor((M, N), out_dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=256) as (bx, by):
            A_s = T.alloc_shared((block_M, block_K), in_dtype)
            B_s = T.alloc_shared((block_K, block_N), in_dtype)
            C_s = T.alloc_shared((block_M, block_N + pad), out_dtype)
            acc = T.alloc_fragment((block_M, block_N), T.float32)
            T.clear(acc)
            for ko in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                T.copy(A[by * block_M, ko * block_K], A_s)
                T.copy(B[ko * block_K, bx * block_N], B_s)
                T.gemm(A_s, B_s, acc)
            if mode == "accumulate":
                T.fill(C_s, 1)
                for i, j in T.Parallel(block_M, block_N):
                    C_s[i, j] = C_s[i, j] + acc[i, j]
            else:
                for i, j in T.Parallel(block_M, block_N):
                    C_s[i, j] = acc[i, j] * 0.5 - 1
            T.copy(C_s[:, 0:block_N], C[by * block_M, bx * block_N])

    return main


# f32, 32x32 MFMA tiles, rows of 256 bytes: ds_write_b128.
k_f32 = epilogue(1024, 1024, 1024)
# f16 out of the f32 accumulator, rows padded by 4 (136 bytes): ds_write_b64.
k_f16 = epilogue(1024, 1024, 1024, pad=4, out_dtype=T.float16)
# 16x16 MFMA tiles (wavefront tiles of 32 x 16), bf16 operands.
k_16 = epilogue(1024, 1024, 1024, block_N=32, in_dtype=T.bfloat16)
# Rows of 65 floats: runs are not 16-byte aligned, element stores.
k_odd = epilogue(1024, 1024, 1024, pad=1)
# The body reads the tile it stores: element stores.
k_acc = epilogue(1024, 1024, 1024, mode="accumulate")
