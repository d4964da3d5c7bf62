import tilelang
import tilelang.language as T


@tilelang.jit
def wait_dynamic(n_pending: int = 1):
    @T.prim_func
    def main(A: T.Tensor((128,), T.float16), B: T.Tensor((128,), T.float16), n: T.int32):
        with T.Kernel(1, threads=128):
            A_s = T.alloc_shared((128,), T.float16)
            T.async_copy(A, A_s)
            T.ptx_wait_group(n)
            T.sync_threads()
            T.copy(A_s, B)

    return main


kernel = wait_dynamic()
