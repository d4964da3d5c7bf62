# What T.Parallel(loop_layout=...) refuses, at the argument: a layout that
# contradicts the written fragment's annotated one, a fragment over another
# shape than the loop's, a T.Layout (it places elements, not iterations)
# and a value that is no layout.
# RUN: tlc-build --verify-diagnostics %s
import tilelang
import tilelang.language as T


def rows_reversed(rows, cols):
    return T.Fragment((rows, cols), forward_thread_fn=lambda i, j: rows - 1 - i,
                      forward_index_fn=lambda i, j: cols - 1 - j)


def cols_on_threads(rows, cols):
    return T.Fragment((rows, cols), forward_thread_fn=lambda i, j: j,
                      forward_index_fn=lambda i, j: i)


@tilelang.jit
def refused(M=64, N=64, block_M=64):

    @T.prim_func
    # expected-note@+3 {{in instance refused()}}
    # expected-note@+2 {{in instance refused()}}
    # expected-note@+1 {{in instance refused()}}
    def main(X: T.Tensor((M, N), T.float32), Y: T.Tensor((M, N), T.float32)):
        with T.Kernel(1, threads=block_M) as bx:
            acc = T.alloc_fragment((block_M, N), T.float32)
            # expected-note@+1 {{'tile.annotate_layout' gave 'acc' the layout}}
            T.annotate_layout({acc: cols_on_threads(block_M, N)})
            # expected-error@+1 {{layout conflict on 'acc'}}
            for i, j in T.Parallel(block_M, N, loop_layout=rows_reversed(block_M, N)):
                acc[i, j] = X[i, j]
            T.copy(acc, Y)
            # expected-error@+1 {{the loop_layout fragment is over [64, 64] but the T.Parallel iterates over [64] (its input shape must be the loop's extents)}}
            for i in T.Parallel(block_M, loop_layout=rows_reversed(block_M, N)):
                Y[i, 0] = 1.0
            # expected-error@+1 {{loop_layout of T.Parallel must be a T.Fragment (this is a T.Layout: it places elements, not iterations on threads)}}
            for i, j in T.Parallel(block_M, N, loop_layout=T.Layout((block_M, N), lambda i, j: [j, i])):
                Y[i, j] = 2.0
            # expected-error@+1 {{loop_layout of T.Parallel must be a T.Fragment}}
            for i, j in T.Parallel(block_M, N, loop_layout=3):
                Y[i, j] = 2.0

    return main
