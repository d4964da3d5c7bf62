# One shared tile read by two gemms whose wgmma descriptors need different
# swizzles (issue 13; flash_attention/example_mha_bwd_wgmma_pipelined): K_s
# is gemm 1's K-major A (128-byte rows: 128-byte panels) and gemm 2's
# N-major B on 4 x 2 warps, whose instructions start every 32 columns,
# inside those rows. tile-plan-wgmma gave K_s the first gemm's panels and
# the printer refused gemm 2 ("an instruction's operand does not start
# where its tile puts it"); now gemm 2 keeps mma.sync (and with it the
# kernel, which does not mix the two yet). The CPU target against NumPy,
# the CUDA code on the sim device against the CPU target.
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s | FileCheck %s
# CHECK: float acc1[64];  // mma.C · 2×4 warps
# CHECK: float acc2[32];  // mma.C · 2×4 warps
# CHECK-NOT: tlc::cuda::wgmma
# CHECK: tlc::cuda::mmaM16N8K16
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 7 --save %t/out > /dev/null
# RUN: %python -c "import numpy as np; d='%t/out/'; k=np.load(d+'inputs/K.npy').astype(np.float64); q=np.load(d+'inputs/Q.npy').astype(np.float64); g=np.load(d+'inputs/D.npy').astype(np.float64); o1=np.load(d+'O1.npy'); o2=np.load(d+'O2.npy'); print(bool(np.allclose(o1, k @ q.T, rtol=1e-3, atol=1e-2)), bool(np.allclose(o2, g.T @ k, rtol=1e-3, atol=1e-2)))" | FileCheck %s --check-prefix=REF
# REF: True True
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sm90 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm90 --device sim --seed 7 --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# SIM: verify O1: PASS
# SIM: verify O2: PASS
import tilelang
import tilelang.language as T


@tilelang.jit
def two_reads(dtype="float16", accum="float32"):

    @T.prim_func
    def main(K: T.Tensor((128, 64), dtype), Q: T.Tensor((128, 64), dtype), D: T.Tensor((128, 128), dtype),
             O1: T.Tensor((128, 128), accum), O2: T.Tensor((128, 64), accum)):
        with T.Kernel(1, threads=256):
            K_s = T.alloc_shared((128, 64), dtype)
            Q_s = T.alloc_shared((128, 64), dtype)
            D_s = T.alloc_shared((128, 128), dtype)
            acc1 = T.alloc_fragment((128, 128), accum)
            acc2 = T.alloc_fragment((128, 64), accum)
            T.copy(K, K_s)
            T.copy(Q, Q_s)
            T.copy(D, D_s)
            T.clear(acc1)
            T.gemm(K_s, Q_s, acc1, transpose_B=True)
            T.clear(acc2)
            T.gemm(D_s, K_s, acc2, transpose_A=True)
            T.copy(acc1, O1)
            T.copy(acc2, O2)

    return main


two_reads()
