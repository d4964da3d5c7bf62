# RUN: rm -rf %t && mkdir -p %t/in
# RUN: %python %S/Inputs/f16_element_copies_check.py gen %t/in
# RUN: tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --inputs %t/in --save %t/out
# RUN: %python %S/Inputs/f16_element_copies_check.py check %t/in %t/out | FileCheck %s
# CHECK: Scaled: 1665 of 1665 equal
# CHECK: Rounded: 1665 of 1665 equal
# CHECK: Widened: 1665 of 1665 equal
# CHECK: Copied: 1665 of 1665 equal
# f16 / bf16 element loops of T.Parallel over rows of a ragged length (45:
# vector tails of every width) on the CPU target, whose element copies are
# scalar so that GCC vectorises these loops (tlc::cpu::MiniFloat's copy
# constructor): an f16 row times an f16 scale (one rounding of the exact
# float32 product), float32 -> bfloat16, bfloat16 -> float32 and an f16 copy
# through shared memory, on inputs with every f16 bit pattern class (zeros,
# subnormals, infinities, NaN) and float32 values at bfloat16 ties, against
# NumPy (float16 casts; bfloat16 rounding on the float32 bits).
import tilelang
import tilelang.language as T


@tilelang.jit
def f16_rows(A, X, B, M=37, N=45):
    A: T.Tensor((M, N), T.float16)
    X: T.Tensor((M, N), T.float32)
    B: T.Tensor((M, N), T.bfloat16)
    Scaled = T.empty((M, N), T.float16)
    Rounded = T.empty((M, N), T.bfloat16)
    Widened = T.empty((M, N), T.float32)
    Copied = T.empty((M, N), T.float16)
    with T.Kernel(M, threads=64) as r:
        row = T.alloc_shared((N,), T.float16)
        T.copy(A[r, :], row)
        for j in T.Parallel(N):
            Scaled[r, j] = A[r, j] * T.float16(0.3)
            Rounded[r, j] = T.cast(X[r, j], T.bfloat16)
            Widened[r, j] = T.cast(B[r, j], T.float32)
        T.copy(row, Copied[r, :])
    return Scaled, Rounded, Widened, Copied
