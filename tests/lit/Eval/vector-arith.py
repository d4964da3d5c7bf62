# Vector values in arithmetic, as TVM defines it for TileLang: `v + w`,
# `v - w`, `v * w`, `v / w`, unary `-v`, `//` and `%` of int32x4, a scalar
# operand in every lane (`v * 2 + A[2]`: T.Broadcast), comparisons into
# boolx2 (`v < w`), `T.Cast(T.float32x2, v)` lane by lane, `T.max` and
# `T.if_then_else` of vectors, math functions (`T.exp`). They were not lowered: arithmetic left
# vector<2xf16> ops no target generates, comparisons were an error, and a
# cast of a vector silently kept the old lane type. Each op is now the
# same op on every lane (ScalarizeVectors). The CPU target and the sim
# device against NumPy (float16 arithmetic rounds every op, as NumPy's).
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile %s | FileCheck %s --check-prefix=TILE
# TILE-NOT: vector<
# TILE: arith.addf %{{.*}} : f16
# TILE: arith.cmpf olt, %{{.*}} : f16
# RUN: rm -rf %t && mkdir -p %t
# RUN: %python %S/Inputs/vector_arith_inputs.py %t/in
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --inputs %t/in --save %t/out > /dev/null
# RUN: %python %S/Inputs/vector_arith_ref.py %t/in %t/out | FileCheck %s
# CHECK: arith True
# CHECK-NEXT: cast True
# CHECK-NEXT: compare True
# CHECK-NEXT: scalar-lanes True
# CHECK-NEXT: max True
# CHECK-NEXT: compare-cast True
# CHECK-NEXT: int True
# CHECK-NEXT: exp True
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sm90 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm90 --device sim --inputs %t/in --save %t/sm90-out > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/vector_arith_ref.py %t/in %t/sm90-out | FileCheck %s %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/sm80 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm80 --device sim --inputs %t/in --save %t/sm80-out > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/vector_arith_ref.py %t/in %t/sm80-out | FileCheck %s %}
# RUN: %if hip-toolchain %{ tlc-build --target=hip:gfx942 -o %t/hip %s > /dev/null %}
# RUN: %if hip-toolchain %{ tlc-run %t/hip --device sim --inputs %t/in --save %t/hip-out > /dev/null %}
# RUN: %if hip-toolchain %{ %python %S/Inputs/vector_arith_ref.py %t/in %t/hip-out | FileCheck %s %}
# RUN: %if nvcc %{ tlc-build --target=cuda:sm_80 -o %t/nvcc %s | FileCheck %s --check-prefix=NVCC %}
# NVCC-COUNT-3: wrote {{.*}}.{{cubin|fatbin}}
# RUN: not tlc-build --check --no-source-lines %S/Inputs/vector_arith_errors.py 2>&1 | FileCheck %s --check-prefix=ERR
# ERR: vector_arith_errors.py:10:13: error: arithmetic between float16x2 and float16x4 values (vectors of different lane counts)
# ERR: vector_arith_errors.py:11:13: error: cannot cast float16x2 to float32x4 (a different number of lanes)
# ERR: vector_arith_errors.py:12:13: error: comparison of float16x2 and float16x4 values (vectors of different lane counts)
import tilelang
import tilelang.language as T


@tilelang.jit
def vec_arith(A: T.Tensor((4,), T.float16), B: T.Tensor((8,), T.float16),
              C: T.Tensor((2,), T.float32), D: T.Tensor((2,), T.int32)):
    with T.Kernel(1, threads=1):
        v = T.alloc_var(T.float16x2)
        w = T.alloc_var(T.float16x2)
        v = T.float16x2(A[0], A[1])
        w = T.float16x2(A[2], A[3])
        s = v + w
        d = v - w
        p = v * w
        q = v / w
        B[0] = T.extract_lane(s, 0)
        B[1] = T.extract_lane(s, 1)
        B[2] = T.extract_lane(d, 0)
        B[3] = T.extract_lane(d, 1)
        B[4] = T.extract_lane(p, 0)
        B[5] = T.extract_lane(p, 1)
        B[6] = T.extract_lane(q, 0)
        B[7] = T.extract_lane(q, 1)
        f = T.Cast(T.float32x2, v)
        C[0] = T.extract_lane(f, 0)
        C[1] = T.extract_lane(f, 1)
        c = v < w
        D[0] = T.Cast(T.int32, T.extract_lane(c, 0))
        D[1] = T.Cast(T.int32, T.extract_lane(c, 1))


@tilelang.jit
def vec_mixed(A: T.Tensor((4,), T.float16), X: T.Tensor((4,), T.int32),
              B: T.Tensor((6,), T.float32), E: T.Tensor((4,), T.int32)):
    with T.Kernel(1, threads=1):
        v = T.alloc_var(T.float16x2)
        v = T.float16x2(A[0], A[1])
        v = v * 2 + A[2]
        v = -v
        g = T.Cast(T.float32x2, v) * 0.5
        B[0] = T.extract_lane(g, 0)
        B[1] = T.extract_lane(g, 1)
        h = T.max(T.Cast(T.float32x2, v), T.float32x2(A[2], A[3]))
        B[2] = T.extract_lane(h, 0)
        B[3] = T.extract_lane(h, 1)
        k = T.int32x4(X[0], X[1], X[2], X[3])
        m = (k * 3) // 2 - k % 3
        sel = T.if_then_else(k > 1, m, k)
        for i in T.serial(4):
            E[i] = T.extract_lane(sel, i)
        c = T.Cast(T.float32x2, T.float16x2(A[0], A[1]) >= 0)
        B[4] = T.extract_lane(c, 0)
        B[5] = T.extract_lane(c, 1)


@tilelang.jit
def vec_math(A: T.Tensor((2,), T.float32), B: T.Tensor((2,), T.float32)):
    with T.Kernel(1, threads=1):
        e = T.exp(T.float32x2(A[0], A[1]))
        B[0] = T.extract_lane(e, 0)
        B[1] = T.extract_lane(e, 1)
