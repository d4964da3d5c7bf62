# RUN: tlc-build --check %s
# RUN: tlc-build --emit=tile --mlir-print-debuginfo %s > %t.mlir
# RUN: tlc-translate --tile-to-cuda %t.mlir | FileCheck %s
# Signless integers live in signed C types, so the unsigned operations go
# through the unsigned type of the operand's width: a uint8 byte of 200
# used as a histogram bin was sign-extended to -56 (found by the sim
# device's memcheck: a negative shared-memory index).
import tilelang
import tilelang.language as T


@tilelang.jit
def bins(N=1024):
    Data: T.Tensor((N,), T.uint8)
    Hist: T.Tensor((256,), T.int32)
    Low: T.Tensor((N,), T.int32)
    with T.Kernel(N // 128, threads=128) as bx:
        for i in T.Parallel(128):
            # CHECK: const int32_t [[B:[a-z0-9_]+]] = (int32_t)((uint8_t)({{[a-z0-9_]+}}));
            b = T.cast(Data[bx * 128 + i], T.int32)
            T.atomic_add(Hist[b], 1)
            # CHECK: ((uint16_t)({{.*}})) < ((uint16_t)({{.*}}))
            Low[bx * 128 + i] = T.if_then_else(
                T.cast(Data[bx * 128 + i], T.uint16) < T.cast(100, T.uint16), 1, 0)
