# Slices with a step are vectors of elements (region-slice-step.py): tile
# operations take contiguous regions only, and the step must be a positive
# constant.
import tilelang.language as T


@T.prim_func
def bad(A: T.Tensor((16, 16), T.float32), n: T.int32):
    with T.Kernel(1, threads=32):
        S = T.alloc_shared((8, 16), T.float32)
        # expected-error@+1 {{a slice with a step is a vector of elements, not a tile region; use it in element-wise loads and stores}}
        T.copy(A[0:16:2, :], S)
        # expected-error@+1 {{a slice step in a buffer region must be positive; TVM counts its elements from the lower bound up}}
        x = A[0, 15:0:-1]
        # expected-error@+1 {{a slice step in a buffer region must be a constant integer, not 'PrimExpr'}}
        y = A[0, 0:16:n]
