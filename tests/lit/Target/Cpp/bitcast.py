# T.reinterpret (arith.bitcast) on the CPU and CUDA targets: the bits of
# f32 as i32 and of f16 as u16 (the value rounded to its storage first),
# and u16 bits back as f16; checked against NumPy's view on the CPU target.
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --save %t/out
# RUN: %python -c "import numpy as np; d='%t/out/'; a=np.load(d+'inputs/A.npy'); h=np.load(d+'inputs/H.npy').astype(np.float16); print(bool((np.load(d+'Bits.npy') == a.view(np.int32)).all()), bool((np.load(d+'HBits.npy') == h.view(np.uint16)).all()), bool((np.load(d+'Back.npy').astype(np.float16) == -h).all()))" | FileCheck %s
# RUN: tlc-build --emit=cuda %s | FileCheck %s --check-prefix=CUDA
# CHECK: True True True
# CUDA: tlc::cuda::bitCast<int32_t>(
# CUDA: tlc::cuda::bitCast<{{u?}}int16_t>(tlc::cuda::toHalf(
# CUDA: tlc::cuda::toFloat(tlc::cuda::bitCast<tlc::cuda::half>(

import tilelang
import tilelang.language as T


@tilelang.jit
def bits(N=256):

    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), H: T.Tensor((N,), "float16"),
             Bits: T.Tensor((N,), "int32"), HBits: T.Tensor((N,), "uint16"),
             Back: T.Tensor((N,), "float16")):
        with T.Kernel(1, threads=128) as bx:
            for i in T.Parallel(N):
                Bits[i] = T.reinterpret(A[i], T.int32)
                HBits[i] = T.reinterpret(H[i], T.uint16)
                Back[i] = T.reinterpret(T.reinterpret(H[i], T.uint16) ^ T.uint16(0x8000), T.float16)

    return main


bits()
