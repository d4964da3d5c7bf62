# example_gemm_sp's kernel with its metadata annotated with
# make_cutlass_metadata_layout for sm 80 (arch "8.0", int16 E) or 90 ("9.0",
# uint8 E),
# for tlc-run's tests.
import tilelang
import tilelang.language as T
from tilelang.layout import make_cutlass_metadata_layout

ARCH_INFO = {"8.0": (16, "int16"), "9.0": (8, "uint8")}


@tilelang.jit(out_idx=[-1])
def gemm_sp_layout(M=128, N=64, K=256, block_M=64, block_N=64, block_K=128,
                   sm=80):
    arch = f"{sm // 10}.{sm % 10}"
    e_factor, e_dtype = ARCH_INFO[arch]

    @T.prim_func
    def main(A_sparse: T.Tensor((M, K // 2), "float16"),
             E: T.Tensor((M, K // e_factor), e_dtype),
             B: T.Tensor((K, N), "float16"),
             C: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M),
                      threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K // 2), "float16")
            E_shared = T.alloc_shared((block_M, block_K // e_factor), e_dtype)
            B_shared = T.alloc_shared((block_K, block_N), "float16")
            C_local = T.alloc_fragment((block_M, block_N), "float32")
            T.annotate_layout({
                E: make_cutlass_metadata_layout(E, mma_dtype="float16",
                                                arch=arch, block_k=block_K),
                E_shared: make_cutlass_metadata_layout(
                    E_shared, mma_dtype="float16", arch=arch,
                    block_k=block_K),
            })
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                T.copy(A_sparse[by * block_M, k * block_K // 2], A_shared)
                T.copy(E[by * block_M, k * block_K // e_factor], E_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm_sp(A_shared, E_shared, B_shared, C_local)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main
