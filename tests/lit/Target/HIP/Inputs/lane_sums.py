# Reductions whose butterflies cross lane bits 0..3 of a wavefront, which
# the HIP target moves with DPP: sums along dim 1 of [rows, 16] tiles (lane
# bits 0..3, each step after the bits below it: quad_perm and the mirrors),
# and along dim 0 of [16, 4] tiles (lane bits 2..5: bits 2 and 3 reduced
# while bits 0 and 1 are not, so row_shl / row_shr under bank masks), over
# ragged row counts; f32 sums, int32 maxima and f64 sums (two dwords).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def row_sums(M, dtype=T.float32, op="sum", rows=4):

    @T.prim_func
    def main(A: T.Tensor((M, 16), dtype), S: T.Tensor((M,), dtype)):
        with T.Kernel(T.ceildiv(M, rows), threads=64) as bx:
            A_f = T.alloc_fragment((rows, 16), dtype)
            s = T.alloc_fragment((rows,), dtype)
            T.copy(A[bx * rows, 0], A_f)
            if op == "sum":
                T.reduce_sum(A_f, s, dim=1)
            else:
                T.reduce_max(A_f, s, dim=1)
            T.copy(s, S[bx * rows])

    return main


@tilelang.jit(out_idx=[-1])
def col_sums(M, dtype=T.float32, op="sum"):

    @T.prim_func
    def main(A: T.Tensor((M, 4), dtype), S: T.Tensor((T.ceildiv(M, 16), 4), dtype)):
        with T.Kernel(T.ceildiv(M, 16), threads=64) as bx:
            A_f = T.alloc_fragment((16, 4), dtype)
            s = T.alloc_fragment((4,), dtype)
            T.copy(A[bx * 16, 0], A_f)
            if op == "sum":
                T.reduce_sum(A_f, s, dim=0)
            else:
                T.reduce_max(A_f, s, dim=0)
            T.copy(s, S[bx, 0])

    return main


k_rows = row_sums(101)
k_rows_max = row_sums(101, dtype=T.int32, op="max")
k_rows_f64 = row_sums(101, dtype=T.float64)
k_cols = col_sums(101)
k_cols_max = col_sums(101, dtype=T.int32, op="max")
k_cols_f64 = col_sums(101, dtype=T.float64)
