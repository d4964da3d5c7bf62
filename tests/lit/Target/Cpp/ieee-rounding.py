# RUN: tlc-build --check %s
# RUN: tlc-build --target=cpu --emit=cpp %s | FileCheck %s
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --seed 9 --save %t/out
# RUN: %python %S/Inputs/ieee_rounding_ref.py %t/out | FileCheck %s --check-prefix=REF
# REF: 28 of 28 PASS
# T.ieee_* with each rounding direction on the CPU target: add, sub, mul,
# fdiv, fmaf, frcp, fsqrt in rn/rz/ru/rd, computed without the host's
# rounding mode (double-double residuals, tlc::cpu::roundDirected).
# Inputs/ieee_rounding_ref.py rounds the exact rational results (Python
# fractions) in each direction and compares every element.
import tilelang
import tilelang.language as T


@tilelang.jit
def ieee_ops(X, Y, Z, N=512):
    X: T.Tensor((N,), T.float32)
    Y: T.Tensor((N,), T.float32)
    Z: T.Tensor((N,), T.float32)
    Out = T.empty((28, N), T.float32)
    with T.Kernel(N // 128, threads=128) as bx:
        for i in T.Parallel(128):
            g = bx * 128 + i
            x = X[g]
            y = Y[g]
            z = Z[g]
            for r, mode in enumerate(["rn", "rz", "ru", "rd"]):
                # CHECK: tlc::cpu::ieeeAdd({{.*}}, tlc::cpu::Rounding::Nearest)
                Out[7 * r + 0, g] = T.ieee_add(x, y, mode)
                Out[7 * r + 1, g] = T.ieee_sub(x, y, mode)
                Out[7 * r + 2, g] = T.ieee_mul(x, y, mode)
                # CHECK: tlc::cpu::ieeeDiv({{.*}}, tlc::cpu::Rounding::TowardZero)
                Out[7 * r + 3, g] = T.ieee_fdiv(x, y, mode)
                Out[7 * r + 4, g] = T.ieee_fmaf(x, y, z, mode)
                Out[7 * r + 5, g] = T.ieee_frcp(y, mode)
                # CHECK: tlc::cpu::ieeeSqrt({{.*}}, tlc::cpu::Rounding::Down)
                Out[7 * r + 6, g] = T.ieee_fsqrt(T.abs(x), mode)
    return Out
