import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def gemm_f64_reg_b(M=64, N=64, K=32):

    @T.prim_func
    def main(A: T.Tensor((M, K), T.float64), B: T.Tensor((K, N), T.float64),
             C: T.Tensor((M, N), T.float64)):
        with T.Kernel(1, threads=256):
            A_s = T.alloc_shared((M, K), T.float64)
            B_f = T.alloc_fragment((K, N), T.float64)
            acc = T.alloc_fragment((M, N), T.float64)
            T.copy(A, A_s)
            T.copy(B, B_f)
            T.clear(acc)
            T.gemm(A_s, B_f, acc)
            T.copy(acc, C)

    return main


@tilelang.jit(out_idx=[-1])
def gemm_f64_into_f32(M=64, N=64, K=32):

    @T.prim_func
    def main(A: T.Tensor((M, K), T.float64), B: T.Tensor((K, N), T.float64),
             C: T.Tensor((M, N), T.float32)):
        with T.Kernel(1, threads=256):
            A_s = T.alloc_shared((M, K), T.float64)
            B_s = T.alloc_shared((K, N), T.float64)
            acc = T.alloc_fragment((M, N), T.float32)
            T.copy(A, A_s)
            T.copy(B, B_s)
            T.clear(acc)
            T.gemm(A_s, B_s, acc)
            T.copy(acc, C)

    return main


k_reg_b = gemm_f64_reg_b()
k_into_f32 = gemm_f64_into_f32()
