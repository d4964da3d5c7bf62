# Programs that issue CDNA matrix-core instructions themselves with
# T.tvm_mfma, as TileLang's AMD kernels do: each lane loads its operand
# registers by the CDNA3 ISA's lane tables (written here from the ISA's
# description of the dense MFMA operands, not from tlc's printer):
#   16x16xK: srcA lane l holds row l % 16 at k = (K / 4) (l / 16) + e,
#            srcB lane l column l % 16 at the same k, and the result's
#            register r row 4 (l / 16) + r of column l % 16.
#   32x32x8: srcA lane l holds row l % 32 at k = 4 (l / 32) + e, srcB
#            likewise, result register v row 8 (v / 4) + 4 (l / 32) + v % 4
#            of column l % 32.
# A is passed as srcA here, so each block's tile of C = A B^T comes out
# with rows in the register index; `swap` passes B first as TileLang's
# emitter does (C transposed in the registers).
import tilelang
import tilelang.language as T


@tilelang.jit
def mfma16(M, N, K, dtype="float16", accum="float32", swap=False):
    per_lane = 8 if dtype in ("int8", "float8_e4m3fnuz") else 4
    k_step = 4 * per_lane
    name = {"float16": "f16", "bfloat16": "bf16_1k", "int8": "_i8",
            "float8_e4m3fnuz": "_fp8_fp8"}[dtype]
    shape = ("i32_" if accum == "int32" else "f32_") + "16x16x" + str(k_step) + name
    vec = dtype + "x" + str(per_lane)

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((N, K), dtype),
             C: T.Tensor((M, N), accum)):
        with T.Kernel(N // 16, M // 16, threads=64) as (bx, by):
            a = T.alloc_local((2 * per_lane,), dtype)
            b = T.alloc_local((2 * per_lane,), dtype)
            c = T.alloc_local((8,), accum)
            lane = T.get_thread_binding()
            T.clear(c)
            for kk in T.serial(K // k_step):
                # Register vector 1 of each operand (index 1 counts vectors).
                for e in T.serial(per_lane):
                    a[per_lane + e] = A[by * 16 + lane % 16,
                                        kk * k_step + lane // 16 * per_lane + e]
                    b[per_lane + e] = B[bx * 16 + lane % 16,
                                        kk * k_step + lane // 16 * per_lane + e]
                if swap:
                    T.tvm_mfma(shape, "row", "row", vec, vec, accum + "x4", b.data, 1,
                               a.data, 1, c.data, 1, dtype=accum + "x4")
                else:
                    T.tvm_mfma(shape, "row", "row", vec, vec, accum + "x4", a.data, 1,
                               b.data, 1, c.data, 1, dtype=accum + "x4")
            for r in T.serial(4):
                if swap:
                    C[by * 16 + lane % 16, bx * 16 + lane // 16 * 4 + r] = c[4 + r]
                else:
                    C[by * 16 + lane // 16 * 4 + r, bx * 16 + lane % 16] = c[4 + r]

    return main


@tilelang.jit
def mfma32(M, N, K, dtype="float16"):

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((N, K), dtype),
             C: T.Tensor((M, N), "float32")):
        with T.Kernel(N // 32, M // 32, threads=64) as (bx, by):
            a = T.alloc_local((4,), dtype)
            b = T.alloc_local((4,), dtype)
            c = T.alloc_local((16,), "float32")
            lane = T.get_thread_binding()
            T.clear(c)
            for kk in T.serial(K // 8):
                for e in T.serial(4):
                    a[e] = A[by * 32 + lane % 32, kk * 8 + lane // 32 * 4 + e]
                    b[e] = B[bx * 32 + lane % 32, kk * 8 + lane // 32 * 4 + e]
                T.tvm_mfma("f32_32x32x8" + ("f16" if dtype == "float16" else "bf16_1k"),
                           "row", "row", dtype + "x4", dtype + "x4", "float32x16",
                           a.data, 0, b.data, 0, c.data, 0, dtype="float32x16")
            for v in T.serial(16):
                C[by * 32 + v // 4 * 8 + lane // 32 * 4 + v % 4, bx * 32 + lane % 32] = c[v]

    return main


mfma16(32, 48, 64)
mfma16(32, 48, 64, swap=True)
mfma16(32, 48, 64, dtype="bfloat16")
mfma16(32, 48, 96, dtype="int8", accum="int32")
mfma32(64, 96, 48)
mfma32(64, 96, 48, dtype="bfloat16")
