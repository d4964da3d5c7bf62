import tilelang
import tilelang.language as T


@tilelang.jit
def wgmma_only(threads=128):
    @T.prim_func
    def main(A: T.Tensor((64, 64), T.float16), B: T.Tensor((64, 64), T.float16),
             C: T.Tensor((64, 64), T.float32)):
        with T.Kernel(1, threads=threads):
            A_s = T.alloc_shared((64, 64), T.float16)
            B_s = T.alloc_shared((64, 64), T.float16)
            acc = T.alloc_fragment((64, 64), T.float32)
            T.copy(A, A_s)
            T.copy(B, B_s)
            T.clear(acc)
            T.warpgroup_arrive()
            T.wgmma_gemm(A_s, B_s, acc)
            T.warpgroup_commit_batch()
            T.warpgroup_wait(0)
            T.copy(acc, C)

    return main


kernel = wgmma_only()
