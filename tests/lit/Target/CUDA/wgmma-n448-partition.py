# A wgmma gemm whose accumulator is 128 x 448 over 256 threads (issue 14):
# each thread holds 224 values on any partition. Square (and FullCol)
# picked 4 x 2 warps, two 64-row atoms of N = 224 (112 registers each,
# register r = 112 * atom + i), a (thread, register) map not linear in the
# bits of r, and the CUDA target refused the kernel ("cannot index fragment
# layout wgmma.C · 4×2 warps · 224 regs/thread"). The partition now passes
# over such maps: 8 x 1, one atom of two N = 224 instructions (columns
# linear in r / 4), as FullRow gives. Built for sm_90a, run on the sim
# device, C agrees with the CPU target, whose C agrees with NumPy.
# REQUIRES: sim-compiler
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s 2>/dev/null | FileCheck %s
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines -D policy=FullRow %s 2>/dev/null | FileCheck %s
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines -D policy=FullCol %s 2>/dev/null | FileCheck %s
# CHECK: float accum[224];  // wgmma.C · 8×1 warps · 224 regs/thread
# CHECK: tlc::cuda::wgmmaM64N224K16F32F16<0, 1>(&accum[0],
# CHECK: tlc::cuda::wgmmaM64N224K16F32F16<0, 1>(&accum[112],
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sm90 %s > /dev/null 2>&1
# RUN: tlc-run %t/sm90 --device sim --verify --reference %t/cpu 2>&1 | FileCheck %s --check-prefix=SIM
# SIM: verify out: PASS
# RUN: tlc-run %t/cpu --save %t/out > /dev/null
# RUN: %python -c "import numpy as np; d='%t/out/'; a=np.load(d+'inputs/a.npy').astype(np.float64); b=np.load(d+'inputs/b.npy').astype(np.float64); c=np.load(d+'out.npy').astype(np.float64); print(bool(np.allclose(c, a @ b, rtol=1e-3, atol=1e-3)))" | FileCheck %s --check-prefix=NUMPY
# NUMPY: True
import tilelang
import tilelang.language as T


@tilelang.jit
def n448(policy="Square"):

    @T.prim_func
    def main(a: T.Tensor((128, 64), "float16"), b: T.Tensor((64, 448), "float16"),
             out: T.Tensor((128, 448), "float32")):
        with T.Kernel(1, threads=256):
            a_shared = T.alloc_shared((128, 64), "float16")
            b_shared = T.alloc_shared((64, 448), "float16")
            accum = T.alloc_fragment((128, 448), "float32")
            T.copy(a, a_shared)
            T.copy(b, b_shared)
            T.gemm(a_shared, b_shared, accum, clear_accum=True,
                   policy=getattr(T.GemmWarpPolicy, policy))
            T.copy(accum, out)

    return main
