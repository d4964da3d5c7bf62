# T.match_all_sync on HIP: the mask when every lane it names holds the same
# value, else 0. Under the default 32-bit mask each half-wavefront answers
# for itself (as a warp of 32); all 64 bits name the wavefront. Out[c, t]:
# c = 0 values equal in each half (mask), c = 1 lanes 32..39 differ from
# 40..63 (half 0: mask, half 1: 0), c = 2 the wavefront equal, c = 3 the
# wavefront split at lane 32 (0), c = 4 under `if t < 40` (half 1's active
# lanes 32..39 agree: mask).
import tilelang
import tilelang.language as T


@tilelang.jit
def match_all(dtype=T.int64):

    @T.prim_func
    def main(Out: T.Tensor((5, 64), dtype)):
        with T.Kernel(1, threads=64):
            t = T.get_thread_binding()
            Out[0, t] = T.cast(T.match_all_sync(t // 32), dtype)
            Out[1, t] = T.cast(T.match_all_sync(T.if_then_else(t < 40, t // 32, 7)), dtype)
            Out[2, t] = T.cast(T.match_all_sync(t // 64, 0xFFFFFFFFFFFFFFFF), dtype)
            Out[3, t] = T.cast(T.match_all_sync(t // 32, 0xFFFFFFFFFFFFFFFF), dtype)
            Out[4, t] = T.int64(-5)
            if t < 40:
                Out[4, t] = T.cast(T.match_all_sync(t // 32), dtype)

    return main


k = match_all()
