# T.gemm of f16 operands with a float16 accumulator and A from registers
# on sm_90a (issue 14): wgmma's `.f16.f16.f16` form with A in registers
# (wgmma/f16_f16acc_rs.h, generated: PTX ISA "wgmma.mma_async", A as four
# .b32 registers of f16 pairs, D as N/4 registers of f16 pairs). Before,
# an f16 accumulator kept the gemm on mma.sync when A was a fragment. The
# product of a fragment A (loaded from global memory, and the f16 P of a
# first gemm as attention's P.V) runs on the sim device (each
# instruction's sums rounded to f16) and agrees with the CPU target, whose
# results agree with NumPy.
# REQUIRES: sim-compiler
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s | FileCheck %s
# CHECK-LABEL: f16_accumulator_rs
# CHECK: tlc::cuda::wgmmaM64N64K16F16F16RS<1>(reinterpret_cast<uint32_t *>(&accum[0]), aFrag[0][0], bDesc
# CHECK-NOT: tlc::cuda::mma
# CHECK-LABEL: f16_chained_rs
# CHECK: tlc::cuda::wgmmaM64N64K16F16F16<0, 1>(reinterpret_cast<uint32_t *>(&s[0])
# CHECK: tlc::cuda::wgmmaM64N32K16F16F16RS<1>(reinterpret_cast<uint32_t *>(&o[0]), aFrag_1[0][0], bDesc
# CHECK-NOT: tlc::cuda::mma
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sm90 %s > /dev/null
# RUN: tlc-run %t/sm90 --kernel=f16_accumulator_rs --device sim --verify --reference %t/cpu 2>&1 | FileCheck %s --check-prefix=SIM
# RUN: tlc-run %t/sm90 --kernel=f16_chained_rs --device sim --verify --reference %t/cpu 2>&1 | FileCheck %s --check-prefix=SIM
# SIM: verify out: PASS
# RUN: tlc-run %t/cpu --kernel=f16_accumulator_rs --save %t/out > /dev/null
# RUN: %python -c "import numpy as np; d='%t/out/'; a=np.load(d+'inputs/a.npy').astype(np.float32); b=np.load(d+'inputs/b.npy').astype(np.float32); c=np.load(d+'out.npy').astype(np.float32); print(bool(np.allclose(c, a @ b, rtol=1e-2, atol=2e-2)))" | FileCheck %s --check-prefix=NUMPY
# RUN: tlc-run %t/cpu --kernel=f16_chained_rs --save %t/ch > /dev/null
# RUN: %python -c "import numpy as np; d='%t/ch/'; a=np.load(d+'inputs/a.npy').astype(np.float32); b=np.load(d+'inputs/b.npy').astype(np.float32); v=np.load(d+'inputs/v.npy').astype(np.float32); p=(a @ b).astype(np.float16).astype(np.float32); o=np.load(d+'out.npy').astype(np.float32); print(bool(np.allclose(o, p @ v, rtol=2e-2, atol=5e-2)))" | FileCheck %s --check-prefix=NUMPY
# NUMPY: True
import tilelang
import tilelang.language as T


@tilelang.jit
def f16_accumulator_rs(M=64, K=32):

    @T.prim_func
    def main(a: T.Tensor((M, K), "float16"), b: T.Tensor((K, 64), "float16"),
             out: T.Tensor((M, 64), "float16")):
        with T.Kernel(1, threads=128):
            a_frag = T.alloc_fragment((M, K), "float16")
            b_shared = T.alloc_shared((K, 64), "float16")
            accum = T.alloc_fragment((M, 64), "float16")
            T.copy(a, a_frag)
            T.copy(b, b_shared)
            T.gemm(a_frag, b_shared, accum, clear_accum=True)
            T.copy(accum, out)

    return main


@tilelang.jit
def f16_chained_rs(M=64, K=32):

    @T.prim_func
    def main(a: T.Tensor((M, K), "float16"), b: T.Tensor((K, 64), "float16"),
             v: T.Tensor((64, 32), "float16"),
             out: T.Tensor((M, 32), "float16")):
        with T.Kernel(1, threads=128):
            a_shared = T.alloc_shared((M, K), "float16")
            b_shared = T.alloc_shared((K, 64), "float16")
            v_shared = T.alloc_shared((64, 32), "float16")
            s = T.alloc_fragment((M, 64), "float16")
            p = T.alloc_fragment((M, 64), "float16")
            o = T.alloc_fragment((M, 32), "float16")
            T.copy(a, a_shared)
            T.copy(b, b_shared)
            T.copy(v, v_shared)
            T.gemm(a_shared, b_shared, s, clear_accum=True)
            T.copy(s, p)
            T.gemm(p, v_shared, o, clear_accum=True)
            T.copy(o, out)

    return main
