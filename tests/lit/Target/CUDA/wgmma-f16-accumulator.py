# T.wgmma_gemm / T.gemm of f16 operands with a float16 accumulator on
# sm_90a (issue 14; corpus44 G2, upstream's arch-guard test expects
# tl::wgmma_ss): wgmma's `.f16.f16.f16` form, the accumulator passed as
# 32-bit registers of f16 pairs (wgmma/f16_f16acc.h, generated). Run on
# the sim device (each instruction's sums rounded to f16), C agrees with
# the CPU target, whose C agrees with NumPy. T.wgmma_gemm's refusal says
# which condition failed (dtypes, shapes).
# REQUIRES: sim-compiler
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s | FileCheck %s
# CHECK: tlc::cuda::wgmmaM64N64K16F16F16<0, 1>(reinterpret_cast<uint32_t *>(&accum[0]), aDesc
# CHECK-NOT: tlc::cuda::mma
# RUN: tlc-build --target=cuda:sm_90a --emit=hints --format=json %s | FileCheck %s --check-prefix=HINT
# HINT: "name":"accum",{{.*}}"layout":"wgmma.C · 4×1 warps · 32 regs/thread"
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -D K=64 -o %t/cpu %s > /dev/null
# RUN: tlc-build --target=cuda:sm_90a --cuda-compiler=none -D K=64 -o %t/sm90 %s > /dev/null
# RUN: FileCheck %s --check-prefix=K64 < %t/sm90/f16_accumulator.cu
# K64-COUNT-4: tlc::cuda::wgmmaM64N64K16F16F16<0, 1>(
# RUN: tlc-run %t/sm90 --device sim --verify --reference %t/cpu 2>&1 | FileCheck %s --check-prefix=SIM
# SIM: verify out: PASS
# RUN: tlc-run %t/cpu --save %t/out > /dev/null
# RUN: %python -c "import numpy as np; d='%t/out/'; a=np.load(d+'inputs/a.npy').astype(np.float32); b=np.load(d+'inputs/b.npy').astype(np.float32); c=np.load(d+'out.npy').astype(np.float32); print(bool(np.allclose(c, a @ b, rtol=1e-2, atol=1e-2)))" | FileCheck %s --check-prefix=NUMPY
# NUMPY: True
# RUN: not tlc-build --target=cuda:sm_90a --emit=cuda -D dtype=bfloat16 %s 2>&1 | FileCheck %s --check-prefix=DTYPE
# DTYPE: error: T.wgmma_gemm is Hopper's wgmma.mma_async, but this gemm does not fit it: dtypes: wgmma takes f16/bf16 or e4m3/e5m2 operands of one type with a float32 accumulator, or f16 ones with a float16 one; T.gemm would use mma.sync
# RUN: not tlc-build --target=cuda:sm_90a --emit=cuda -D M=32 %s 2>&1 | FileCheck %s --check-prefix=SHAPE
# SHAPE: error: T.wgmma_gemm is Hopper's wgmma.mma_async, but this gemm does not fit it: shapes: M = 32, N = 64, K = 16 on 128 threads is no wgmma gemm
import tilelang
import tilelang.language as T


@tilelang.jit
def f16_accumulator(M=64, K=16, dtype="float16"):

    @T.prim_func
    def main(a: T.Tensor((M, K), dtype), b: T.Tensor((K, 64), dtype),
             out: T.Tensor((M, 64), "float16")):
        with T.Kernel(1, threads=128):
            a_shared = T.alloc_shared((M, K), dtype)
            b_shared = T.alloc_shared((K, 64), dtype)
            accum = T.alloc_fragment((M, 64), "float16")
            T.copy(a, a_shared)
            T.copy(b, b_shared)
            T.wgmma_gemm(a_shared, b_shared, accum, clear_accum=True)
            T.wait_wgmma(0)
            T.copy(accum, out)

    return main
