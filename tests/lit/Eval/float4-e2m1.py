# fp4 (e2m1) operands as the MXFP4/NVFP4 kernels declare them: global
# tensors and shared tiles of `T.float4_e2m1fn` (or the dtype string) with
# their logical shapes, indexed per element, stored two values a byte.
# --check analyses them with no diagnostic and the hints carry the dtype
# and its 4-bit layout; the CUDA target addresses packed memory through
# nibble references (values: ../Target/fp4-e2m1.py).
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints %s | FileCheck %s --check-prefix=HINTS
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a %s 2>&1 \
# RUN:   | FileCheck %s --check-prefix=CUDA
# HINTS: "name":"Q","kind":"tensor","shape":[256,1024],"dtype":"float4_e2m1fn","scope":"global"
# HINTS: "name":"q","kind":"buffer","shape":[1024],"dtype":"float4_e2m1fn","scope":"shared.dyn","layout":"linear","layoutDetail":"layout [1024] -> [1024] · linear · 4-bit elements
# CUDA: tlc::fp4::e2m1At<true>(q, i0_1) = tlc::fp4::e2m1FromFloat(
# CUDA: tlc::fp4::e2m1At<true>(Q, (bx) * 1024 + (i0_2 + e)) = tlc::fp4::e2m1FromFloat(tlc::fp4::e2m1ToFloat(tlc::fp4::e2m1At<true>(q, (i0_2 + e))))
import tilelang
import tilelang.language as T

assert T.float4_e2m1fn.bits == 4
assert T.dtype("float4_e2m1fn") == T.float4_e2m1fn


@tilelang.jit
def quant(M, N, block=32):
    @T.prim_func
    def main(X: T.Tensor((M, N), T.float32),
             Q: T.Tensor((M, N), "float4_e2m1fn"),
             S: T.Tensor((M, N // block), T.float32)):
        with T.Kernel(M, threads=128) as bx:
            x = T.alloc_fragment((N,), T.float32)
            q = T.alloc_shared((N,), T.float4_e2m1fn)
            T.copy(X[bx, :], x)
            for i in T.Parallel(N):
                q[i] = T.Cast(T.float4_e2m1fn, T.clamp(x[i], -6.0, 6.0))
            T.copy(q, Q[bx, :])
            for j in T.Parallel(N // block):
                S[bx, j] = 1.0
    return main


k = quant(256, 1024)
