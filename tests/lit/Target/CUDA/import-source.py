# T.import_source and T.Kernel(prelude=...): the program's own device
# source is printed after every header (so TileLang's TL_DEVICE is defined)
# and before the kernel, a text without a final newline is ended with one,
# and T.call_extern calls its functions by name. The CPU target builds the
# same text with the CUDA qualifiers defined away; it is checked against
# NumPy, and the CUDA and HIP code run on the sim device against it.
# RUN: tlc-build --emit=tile %s | FileCheck %s --check-prefix=TILE
# TILE: tile.func @extern_calls({{.*}}) attributes {tile.imported_sources = ["TL_DEVICE float scale_add(float x, float y) { return x * 3.0f + y; }\0A", "__device__ int my_helper(int x) { return x + 1; }"]}
# TILE: tile.intrinsic "T.call_extern"({{.*}}) {options = {func_name = "my_helper"}, params = ["args"]} : (i32) -> i32
# TILE: tile.intrinsic "T.call_extern"({{.*}}) {options = {func_name = "scale_add"}, params = ["args", "args"]} : (f32, f32) -> f32
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s | FileCheck %s
# CHECK: #include "tlc_device/cuda.h"
# CHECK-EMPTY:
# CHECK-NEXT: // Imported by the program (T.import_source, T.Kernel(prelude=...)).
# CHECK-NEXT: TL_DEVICE float scale_add(float x, float y) { return x * 3.0f + y; }
# CHECK-NEXT: __device__ int my_helper(int x) { return x + 1; }
# CHECK-EMPTY:
# CHECK: extern_calls_kernel(
# CHECK: = (int32_t)(my_helper(
# CHECK: = (float)(scale_add(
# RUN: tlc-build --target=hip:gfx942 --emit=hip --no-source-lines %s | FileCheck %s --check-prefix=HIP
# HIP: #include "tlc_device/hip.h"
# HIP: __device__ int my_helper(int x) { return x + 1; }
# HIP: = (int32_t)(my_helper(
# RUN: tlc-build --target=cpu --emit=cpp %s | FileCheck %s --check-prefix=CPP
# CPP: #define __device__
# CPP: #define TL_DEVICE inline
# CPP: __device__ int my_helper(int x) { return x + 1; }
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 3 --save %t/out > /dev/null
# RUN: %python %S/Inputs/import_source_check.py %t/out | FileCheck %s --check-prefix=REF
# REF: import_source OK
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/sm80 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm80 --device sim --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# RUN: %if hip-toolchain && sim-compiler %{ tlc-build --target=hip:gfx942 -o %t/hip %s > /dev/null %}
# RUN: %if hip-toolchain && sim-compiler %{ tlc-run %t/hip --device sim --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# SIM: verify B: PASS
# SIM: verify D: PASS
# A value that is not source text is an error at the argument.
# RUN: not tlc-build --check -Dbad=1 %s 2>&1 | FileCheck %s --check-prefix=ERR
# ERR: import-source.py:[[@LINE+11]]:25: error: imported source must be a string of C++ source text, not 42
import tilelang
import tilelang.language as T

PRELUDE = "__device__ int my_helper(int x) { return x + 1; }"  # no newline
TL_PRELUDE = "TL_DEVICE float scale_add(float x, float y) { return x * 3.0f + y; }\n"


@tilelang.jit
def extern_calls(n: int = 200, bad: int = 0):
    if bad:
        T.import_source(42)

    @T.prim_func
    def main(A: T.Tensor((n,), "int32"), B: T.Tensor((n,), "int32"),
             C: T.Tensor((n,), "float32"), D: T.Tensor((n,), "float32")):
        with T.Kernel(T.ceildiv(n, 128), threads=128, prelude=TL_PRELUDE) as bx:
            T.import_source(PRELUDE)
            tid = T.get_thread_binding(0)
            i = bx * 128 + tid
            if i < n:
                B[i] = T.call_extern("int32", "my_helper", A[i])
                D[i] = T.call_extern("float32", "scale_add", C[i], T.float32(0.5))

    return main


extern_calls()
