# GPU scheduling hints and completion waits (register-allocation hints,
# programmatic dependent launch, wgmma and TMA-store waits, async-proxy
# fences) are no-ops on the CPU target, where a block runs in program order
# on one executor and kernels run one after the other; the program around
# them computes what NumPy does. A primitive that is not one of them is
# refused by name.
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --save %t/out
# RUN: %python -c "import numpy as np; d='%t/out/'; l=lambda k, n: np.load(d+k+'/'+n).astype(np.float64); print(np.allclose(l('producer', 'B.npy'), 2 * l('producer', 'inputs/A.npy') + 1, rtol=1e-6, atol=1e-6), np.allclose(l('consumer', 'C.npy'), l('consumer', 'inputs/B.npy') * 3, rtol=1e-3, atol=1e-3))" | FileCheck %s
# CHECK: True True
# RUN: tlc-build --target=cpu --emit=cpp %s | FileCheck %s --check-prefix=CPP
# CPP: // T.pdl_trigger(): no-op on the CPU
# CPP: // T.no_set_max_nreg(): no-op on the CPU
# CPP: // T.pdl_sync(): no-op on the CPU
# CPP: // T.disable_warp_group_reg_alloc(): no-op on the CPU
# RUN: not tlc-build --target=cpu --emit=cpp -Duse_shuffle=1 %s 2>&1 | FileCheck %s --check-prefix=ERR
# ERR: gpu-hints.py:[[@LINE+20]]:{{[0-9]+}}: error: the CPU target cannot emit T.tcgen05_gemm_sp

import tilelang
import tilelang.language as T


@tilelang.jit
def producer(M=40, N=24, use_shuffle=0):
    A: T.Tensor((M, N), T.float32)
    B: T.Tensor((M, N), T.float32)
    with T.Kernel(T.ceildiv(M, 16), threads=128) as bx:
        T.pdl_trigger()
        T.no_set_max_nreg()
        for i, j in T.Parallel(16, N):
            B[bx * 16 + i, j] = A[bx * 16 + i, j] * 2.0 + 1.0
        if use_shuffle:
            a_sparse = T.alloc_shared((128, 32), T.float16)
            e = T.alloc_shared((128, 4), T.uint8)
            b = T.alloc_shared((64, 64), T.float16)
            c = T.alloc_tmem([128, 64], T.float32)
            T.tcgen05_gemm_sp(a_sparse, e, b, c)


@tilelang.jit
def consumer(M=40, N=24):
    B: T.Tensor((M, N), T.float16)
    C: T.Tensor((M, N), T.float16)
    with T.Kernel(T.ceildiv(M, 16), threads=128) as bx:
        T.pdl_sync()
        T.disable_warp_group_reg_alloc()
        S = T.alloc_shared((16, N), T.float16)
        T.copy(B[bx * 16, 0], S)
        for i, j in T.Parallel(16, N):
            C[bx * 16 + i, j] = S[i, j] * 3.0
