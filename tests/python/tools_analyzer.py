# tilelang.tools.Analyzer on the Tile IR of factory-made prim_funcs: FLOPs
# of T.gemm and global-memory bytes, against the counts worked out by hand
# from the programs' loops and grids (Python integers).

import tilelang
import tilelang.language as T
import tilelang.testing
from tilelang.carver.arch import CUDA
from tilelang.tools import Analyzer


def gemm(M, N, K, bm, bn, bk, trans_a):
    a_shape = (K, M) if trans_a else (M, K)
    a_tile = (bk, bm) if trans_a else (bm, bk)

    @T.prim_func
    def main(A: T.Tensor(a_shape, "float16"), B: T.Tensor((K, N), "float16"),
             C: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, bn), T.ceildiv(M, bm), threads=128) as (bx, by):
            A_s = T.alloc_shared(a_tile, "float16")
            B_s = T.alloc_shared((bk, bn), "float16")
            C_f = T.alloc_fragment((bm, bn), "float32")
            T.clear(C_f)
            for k in T.Pipelined(T.ceildiv(K, bk), num_stages=2):
                if trans_a:
                    T.copy(A[k * bk, by * bm], A_s)
                else:
                    T.copy(A[by * bm, k * bk], A_s)
                T.copy(B[k * bk, bx * bn], B_s)
                T.gemm(A_s, B_s, C_f, transpose_A=trans_a)
            T.copy(C_f, C[by * bm, bx * bn])

    return main


def scaled_rows(M, N, step):
    @T.prim_func
    def main(X: T.Tensor((M, N), "float32"), Y: T.Tensor((M, N), "float64")):
        with T.Kernel(M // 8, threads=64) as bx:
            for r in T.serial(0, 8, step):
                for j in T.Parallel(N):
                    Y[bx * 8 + r, j] = T.cast(X[bx * 8 + r, j], "float64") * 2.0

    return main


def test_gemm_flops_and_bytes():
    for (M, N, K, bm, bn, bk, trans_a) in [(256, 128, 512, 64, 64, 32, False),
                                           (128, 256, 96, 64, 128, 32, True)]:
        result = Analyzer.analysis(gemm(M, N, K, bm, bn, bk, trans_a),
                                   CUDA("cuda"))
        assert result.total_flops == 2 * M * N * K, result
        blocks = (M // bm) * (N // bn)
        trips = K // bk
        expected = blocks * trips * (bm * bk + bk * bn) * 2 + M * N * 4
        assert result.total_global_bytes == expected, (result, expected)


def test_element_accesses_and_loop_steps():
    M, N = 64, 48
    for step in (1, 3):
        result = Analyzer.analysis(scaled_rows(M, N, step))
        rows = (M // 8) * len(range(0, 8, step))
        assert result.total_flops == 0
        assert result.total_global_bytes == rows * N * (4 + 8), result


def test_named_part_estimates_time():
    # examples/analyze's script: Analyzer.analysis(func, RTX4090("cuda")).
    # The RTX 4090's data sheet: 128 SMs, sm_89, 1008 GB/s, 165 TFLOPS of
    # dense FP16 tensor math with FP32 accumulation.
    from tilelang.carver.arch import RTX4090, H100
    part = RTX4090("cuda")
    assert (part.sm_count, part.sm_version) == (128, 89), part
    assert H100("cuda").compute_max_core == 132
    M = N = K = 1024
    result = Analyzer.analysis(gemm(M, N, K, 128, 128, 32, False), part)
    flops = 2 * M * N * K
    assert result.total_flops == flops
    expected = max(flops / 165e12, result.total_global_bytes / 1008e9)
    assert abs(result.estimated_time - expected) <= 1e-12 * expected, \
        (result.estimated_time, expected)


if __name__ == "__main__":
    tilelang.testing.main()
