import tilelang
import tilelang.language as T


# One block of 128 threads whose loop meets a barrier at every iteration:
# on the sim device its one block alone runs far past a one-second limit.
@tilelang.jit
def long_block(N=4096, steps=10000000):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(1, threads=128) as bx:
            acc = T.alloc_shared((128,), "float32")
            tx = T.get_thread_binding()
            acc[tx] = 0.0
            for s in T.serial(steps):
                T.sync_threads()
                acc[tx] = acc[tx] + A[(s * 128 + tx) % N]
            for i in T.serial(N // 128):
                B[i * 128 + tx] = acc[tx]

    return main
