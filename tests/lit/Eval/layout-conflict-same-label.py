# RUN: tlc-build --verify-diagnostics %s
# A layout conflict between two fragments whose short labels read the same
# says what differs: the threads holding them, or else that the elements
# sit on other threads or registers.
import tilelang
import tilelang.language as T


def rows_from(rows, cols, first):
    return T.Fragment((rows, cols), forward_thread_fn=lambda i, j: i + first,
                      forward_index_fn=lambda i, j: j)


def rows_reversed(rows, cols):
    return T.Fragment((rows, cols), forward_thread_fn=lambda i, j: rows - 1 - i,
                      forward_index_fn=lambda i, j: j)


@tilelang.jit
def other_threads(M=64, N=16):

    @T.prim_func
    def main(X: T.Tensor((M, N), T.float32), Y: T.Tensor((M, N), T.float32)):
        with T.Kernel(1, threads=128) as bx:
            acc = T.alloc_fragment((M, N), T.float32)
            # expected-note@+1 {{'tile.annotate_layout' gave 'acc' the layout fragment · 16 regs/thread here}}
            T.annotate_layout({acc: rows_from(M, N, 0)})
            # expected-error@+1 {{needs fragment · 16 regs/thread, but 'tile.annotate_layout' gave it fragment · 16 regs/thread (the existing layout is held by threads 0..63, the needed one by threads 64..127)}}
            for i, j in T.Parallel(M, N, loop_layout=rows_from(M, N, 64)):
                acc[i, j] = X[i, j]
            T.copy(acc, Y)

    return main


@tilelang.jit
def other_order(M=64, N=16):

    @T.prim_func
    def main(X: T.Tensor((M, N), T.float32), Y: T.Tensor((M, N), T.float32)):
        with T.Kernel(1, threads=128) as bx:
            acc = T.alloc_fragment((M, N), T.float32)
            # expected-note@+1 {{'tile.annotate_layout' gave 'acc' the layout fragment · 16 regs/thread here}}
            T.annotate_layout({acc: rows_from(M, N, 0)})
            # expected-error@+1 {{(same threads, replication and registers per thread, but the elements sit on different threads or registers)}}
            for i, j in T.Parallel(M, N, loop_layout=rows_reversed(M, N)):
                acc[i, j] = X[i, j]
            T.copy(acc, Y)

    return main
