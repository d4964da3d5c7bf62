# T.tvm_mfma calls the HIP target refuses, each at the call
# (tvm-mfma.test builds them one kernel at a time).
import tilelang
import tilelang.language as T


def kernel(case):

    @T.prim_func
    def main(A: T.Tensor((16, 16), "float16"), C: T.Tensor((16, 16), "float32")):
        with T.Kernel(1, threads=64) as bx:
            a = T.alloc_local((4,), "float16")
            s = T.alloc_shared((64, 4), "float16")
            c = T.alloc_local((4,), "float32")
            t = T.get_thread_binding()
            for e in T.serial(4):
                a[e] = A[t % 16, t // 16 * 4 + e]
                s[t, e] = a[e]
            T.clear(c)
            if case == "shape":
                T.tvm_mfma("f32_16x16x8f16", "row", "row", "float16x4", "float16x4",
                           "float32x4", a.data, 0, a.data, 0, c.data, 0, dtype="float32x4")
            elif case == "lanes":
                T.tvm_mfma("f32_16x16x16f16", "row", "row", "float16x8", "float16x8",
                           "float32x4", a.data, 0, a.data, 0, c.data, 0, dtype="float32x4")
            else:
                T.tvm_mfma("f32_16x16x16f16", "row", "row", "float16x4", "float16x4",
                           "float32x4", s.data, 0, a.data, 0, c.data, 0, dtype="float32x4")
            for r in T.serial(4):
                C[t // 16 * 4 + r, t % 16] = c[r]

    return main


@tilelang.jit
def bad_shape():
    return kernel("shape")


@tilelang.jit
def bad_lanes():
    return kernel("lanes")


@tilelang.jit
def bad_shared():
    return kernel("shared")


bad_shape()
bad_lanes()
bad_shared()
