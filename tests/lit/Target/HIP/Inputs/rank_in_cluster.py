# T.block_rank_in_cluster in a kernel launched without clusters: every
# block is a cluster of one, so the rank is 0.
import tilelang
import tilelang.language as T


@tilelang.jit
def rank_in_cluster():
    @T.prim_func
    def main(R: T.Tensor((4, 64), "int32")):
        with T.Kernel(4, threads=64) as bx:
            tx = T.get_thread_binding()
            R[bx, tx] = T.block_rank_in_cluster() * 1000 + bx

    return main


rank_in_cluster()
