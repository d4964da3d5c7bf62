# Rank-0 buffers used as scalars (issue 13): `T.fill` of a rank-0
# `T.alloc_local(())` or `T.alloc_shared(())` printed `for (f = 0; f < ; ...)`
# (no element count: invalid CUDA/HIP); a rank-0 fragment written in scalar
# code (`f[()] = A[0]`, `f[()] = f[()] + A[bx]`, `f[()] = x[0]`) was refused
# ("accesses fragments only inside a T.Parallel ...") because it was laid
# out in one thread; it is now every thread's own value, as a (1,) fragment
# written that way already was. `T.alloc_fragment([], ...)` is the same
# buffer. Checked against NumPy on the CPU target and on sim for sm_80,
# sm_90a and gfx942; nvcc builds them.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda --kernel=fill_local --no-source-lines %s | FileCheck %s --check-prefix=FILL
# FILL: for (int [[F:f[_0-9]*]] = 0; [[F]] < 1; [[F]] += 1) {
# FILL-NEXT: l[0] = 1.5f;
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda --kernel=fill_shared --no-source-lines %s | FileCheck %s --check-prefix=SHARED
# SHARED: for (int [[F:f[_0-9]*]] = tid; [[F]] < 1; [[F]] += 64) {
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda --kernel=scalar_store --no-source-lines %s | FileCheck %s --check-prefix=STORE
# STORE: float f[1];  // replicated · 1 reg/thread · rep 64
# STORE: const float [[V:x[_0-9]*]] = A[5];
# STORE-NEXT: f[0] = [[V]];
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --save %t/cpu-out > /dev/null
# RUN: %python %S/Inputs/rank0_scalar_uses_check.py %t/cpu-out | FileCheck %s
# CHECK-COUNT-6: PASS
# CHECK-NOT: FAIL
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sm90 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm90 --device sim --save %t/sm90-out > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/rank0_scalar_uses_check.py %t/sm90-out | FileCheck %s %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/sm80 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm80 --device sim --save %t/sm80-out > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/rank0_scalar_uses_check.py %t/sm80-out | FileCheck %s %}
# RUN: %if hip-toolchain %{ tlc-build --target=hip:gfx942 -o %t/hip %s > /dev/null %}
# RUN: %if hip-toolchain %{ tlc-run %t/hip --device sim --save %t/hip-out > /dev/null %}
# RUN: %if hip-toolchain %{ %python %S/Inputs/rank0_scalar_uses_check.py %t/hip-out | FileCheck %s %}
# RUN: %if nvcc %{ tlc-build --target=cuda:sm_80 -o %t/nvcc %s | FileCheck %s --check-prefix=NVCC %}
# NVCC-COUNT-6: wrote {{.*}}.{{cubin|fatbin}}
import tilelang
import tilelang.language as T


@tilelang.jit
def fill_local():
    @T.prim_func
    def main(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
        with T.Kernel(1, threads=64):
            l = T.alloc_local((), "float32")
            tx = T.get_thread_binding()
            T.fill(l, 1.5)
            l[()] += A[tx]
            B[tx] = l[()]
    return main


@tilelang.jit
def fill_shared():
    @T.prim_func
    def main(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
        with T.Kernel(1, threads=64):
            s = T.alloc_shared((), "float32")
            T.fill(s, 3.0)
            tx = T.get_thread_binding()
            B[tx] = A[tx] + s[()]
    return main


@tilelang.jit
def scalar_store():
    @T.prim_func
    def main(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
        with T.Kernel(1, threads=64):
            x = T.alloc_fragment((64,), "float32")
            f = T.alloc_fragment((), "float32")
            T.copy(A, x)
            f[()] = A[5]
            for i in T.Parallel(64):
                x[i] = x[i] - f[()]
            T.copy(x, B)
    return main


@tilelang.jit
def accumulate():
    @T.prim_func
    def main(A: T.Tensor((4,), "float32"), B: T.Tensor((4,), "float32")):
        with T.Kernel(4, threads=32) as bx:
            f = T.alloc_fragment((), "float32")
            T.fill(f, 2.0)
            f[()] = f[()] + A[bx]
            T.copy(f, B[bx])
    return main


@tilelang.jit
def element_of_fragment():
    @T.prim_func
    def main(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
        with T.Kernel(1, threads=64):
            x = T.alloc_fragment((64,), "float32")
            f = T.alloc_fragment((), "float32")
            T.copy(A, x)
            T.clear(f)
            for i in T.Parallel(64):
                x[i] = x[i] + 1
            f[()] = x[7]
            for i in T.Parallel(64):
                x[i] = x[i] * f[()]
            T.copy(x, B)
    return main


@tilelang.jit
def list_shape():
    @T.prim_func
    def main(A: T.Tensor((128,), "float32"), B: T.Tensor((1,), "float32")):
        with T.Kernel(1, threads=128):
            src = T.alloc_fragment((128,), "float32")
            dst = T.alloc_fragment([], "float32")
            T.copy(A, src)
            T.reduce_max(src, dst)
            dst[()] = dst[()] * 2
            B[0] = dst[()]
    return main
