# Buffers of vector elements (`int8x2`, `float16x2`, `float32x4` shared
# tiles and fragments), as TileLang's issue-2714 test writes them: rows of
# a tensor loaded lane-vector by lane-vector with `A[r, T.Ramp(c * n, 1,
# n)]` into a swizzled shared tile of n-lane elements, then T.any_of /
# T.all_of over a slice of each row (every lane of each element counts);
# and a round trip of whole elements: shared -> fragment (T.copy), vector
# arithmetic on an element, and a T.Ramp store back into a scalar tensor.
# Built for the CPU target (the reference), cuda:sm_90a and hip:gfx942
# (both on the sim device); each run is checked against NumPy.
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: %python %S/Inputs/vector_element_buffers_check.py tlc-run %t/cpu %t/wcpu | FileCheck %s
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cuda %s > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/vector_element_buffers_check.py tlc-run %t/cuda %t/wcuda --device=sim | FileCheck %s %}
# RUN: %if sim-compiler && hip-toolchain %{ tlc-build --target=hip:gfx942 -o %t/hip %s > /dev/null %}
# RUN: %if sim-compiler && hip-toolchain %{ %python %S/Inputs/vector_element_buffers_check.py tlc-run %t/hip %t/whip --device=sim | FileCheck %s %}
# CHECK: scan_int8x2: ok
# CHECK: scan_float16x2: ok
# CHECK: scan_float32x4: ok
# CHECK: roundtrip_float16x2: ok
# CHECK: roundtrip_int8x4: ok
# CHECK-NOT: WRONG

import tilelang
import tilelang.language as T
from tilelang.layout import make_swizzled_layout


def make_scan(element_type, rows=16, cols=128, begin=8, end=40):
    lanes = int(element_type.rsplit("x", 1)[1])
    scalar = element_type.rsplit("x", 1)[0]

    @T.prim_func
    def main(A: T.Tensor((rows, cols * lanes), scalar),
             Any: T.Tensor((rows,), "int8"), All: T.Tensor((rows,), "int8")):
        with T.Kernel(1, threads=128):
            shared = T.alloc_shared((rows, cols), element_type)
            T.annotate_layout({shared: make_swizzled_layout(shared)})
            for r, c in T.Parallel(rows, cols):
                shared[r, c] = A[r, T.Ramp(c * lanes, 1, lanes)]
            T.sync_threads()
            for r in T.Parallel(rows):
                Any[r] = T.cast(T.any_of(shared[r, begin:end]), "int8")
                All[r] = T.cast(T.all_of(shared[r, begin:end]), "int8")

    return main


def make_roundtrip(element_type, rows=8, cols=32):
    lanes = int(element_type.rsplit("x", 1)[1])
    scalar = element_type.rsplit("x", 1)[0]

    @T.prim_func
    def main(A: T.Tensor((rows, cols * lanes), scalar),
             B: T.Tensor((rows, cols * lanes), scalar)):
        with T.Kernel(1, threads=64):
            s = T.alloc_shared((rows, cols), element_type)
            f = T.alloc_fragment((rows, cols), element_type)
            for r, c in T.Parallel(rows, cols):
                s[r, c] = A[r, T.Ramp(c * lanes, 1, lanes)]
            T.copy(s, f)
            for r, c in T.Parallel(rows, cols):
                f[r, c] = f[r, c] + f[r, c]
            for r, c in T.Parallel(rows, cols):
                B[r, T.Ramp(c * lanes, 1, lanes)] = f[r, c]

    return main


@tilelang.jit
def scan_int8x2():
    return make_scan("int8x2")


@tilelang.jit
def scan_float16x2():
    return make_scan("float16x2")


@tilelang.jit
def scan_float32x4():
    return make_scan("float32x4")


@tilelang.jit
def roundtrip_float16x2():
    return make_roundtrip("float16x2")


@tilelang.jit
def roundtrip_int8x4():
    return make_roundtrip("int8x4")


scan_int8x2()
scan_float16x2()
scan_float32x4()
roundtrip_float16x2()
roundtrip_int8x4()
