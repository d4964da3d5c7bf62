# Reductions across lane bits 4 and 5 of a wavefront after bits 0..3: row
# sums of [rows, 64] tiles (every lane bit: the wavefront's total) and of
# [rows, 32] tiles (bits 0..4: two totals a wavefront), over ragged row
# counts; f32 sums, int32 maxima and f64 sums (two dwords).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def wave_sums(M, width=64, dtype=T.float32, op="sum", rows=4, threads=256):

    @T.prim_func
    def main(A: T.Tensor((M, width), dtype), S: T.Tensor((M,), dtype)):
        with T.Kernel(T.ceildiv(M, rows), threads=threads) as bx:
            A_f = T.alloc_fragment((rows, width), dtype)
            s = T.alloc_fragment((rows,), dtype)
            T.copy(A[bx * rows, 0], A_f)
            if op == "sum":
                T.reduce_sum(A_f, s, dim=1)
            else:
                T.reduce_max(A_f, s, dim=1)
            T.copy(s, S[bx * rows])

    return main


k64 = wave_sums(101)
k64_max = wave_sums(101, dtype=T.int32, op="max")
k64_f64 = wave_sums(101, dtype=T.float64)
k32 = wave_sums(101, width=32, rows=8)
k32_max = wave_sums(101, width=32, rows=8, dtype=T.int32, op="max")
k32_f64 = wave_sums(101, width=32, rows=8, dtype=T.float64)
