# A fragment a T.Parallel writes and scalar code reads (`out[0] = f[37]`
# outside any loop): layout inference replicates it (64 registers in every
# thread), but the CUDA and HIP printers keep the loop's layout (2 registers
# per thread) and read the element through an exchange tile. The hint shows
# the layout of the generated code and says what inference chose; a
# fragment only T.Parallel loops touch keeps the label both agree on.
# RUN: tlc-build --target=cuda:sm_90a --emit=hints --format=json %s 2>/dev/null | FileCheck %s --check-prefixes=HINT,CUDA
# RUN: tlc-build --target=hip:gfx942 --emit=hints --format=json %s 2>/dev/null | FileCheck %s --check-prefixes=HINT,HIP
# HINT: "name":"f","kind":"buffer","shape":[64],"dtype":"float32","scope":"local.fragment","layout":"parallel · 2 regs/thread","layoutDetail":"fragment [64] · 32 threads · 2 regs/thread · replicate 1\nfrom parallel\nthread = i // 2\nindex  = i % 2\n
# CUDA-SAME: held so by the CUDA target; layout inference chose replicated · 64 regs/thread · rep 32, which the generated code does not follow"
# HIP-SAME: held so by the HIP target; layout inference chose replicated · 64 regs/thread · rep 32, which the generated code does not follow"
# HINT: "name":"g","kind":"buffer","shape":[64],"dtype":"float32","scope":"local.fragment","layout":"parallel · 2 regs/thread","layoutDetail":"fragment [64] · 32 threads · 2 regs/thread · replicate 1\nfrom parallel\n
# HINT-NOT: held so
# The generated code: the declarations the hints describe.
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda %s 2>/dev/null | FileCheck %s --check-prefix=CODE
# RUN: tlc-build --target=hip:gfx942 --emit=hip %s 2>/dev/null | FileCheck %s --check-prefix=CODE
# CODE: float f[2];  // parallel · 2 regs/thread
# CODE: float g[2];  // parallel · 2 regs/thread
# CODE: = exchanged[(37)];
import tilelang
import tilelang.language as T


@tilelang.jit
def frag_read(M=64):
    @T.prim_func
    def main(A: T.Tensor((M,), T.float32), B: T.Tensor((M,), T.float32),
             out: T.Tensor((1,), T.float32)):
        with T.Kernel(1, threads=32) as bx:
            f = T.alloc_fragment((M,), T.float32)
            g = T.alloc_fragment((M,), T.float32)
            for i in T.Parallel(M):
                f[i] = A[i] * 2
            for i in T.Parallel(M):
                g[i] = A[i] + 1
            for i in T.Parallel(M):
                B[i] = g[i]
            out[0] = f[37]

    return main


k = frag_read()
