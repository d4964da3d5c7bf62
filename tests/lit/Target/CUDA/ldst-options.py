# T.st(dst, value, scope=, sem=, na=): a store with a memory scope and
# semantics (the public ldst-options test's cases: each thread stores its
# index). The call used to be an unknown T name, warned about and dropped,
# so nothing was stored on any target. Weak is a plain store; relaxed and
# release are one indivisible store (the atomic-store helper), release at
# sys scope after a system-scope fence. The CPU target against NumPy; the
# CUDA code against the CPU target on sim.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --save %t/out > /dev/null
# RUN: %python -c "import numpy as np, sys; print('st', all(np.array_equal(np.load('%t/out/' + n + '.npy'), np.arange(32)) for n in 'abcdefg'))" | FileCheck %s --check-prefix=NUMPY
# NUMPY: st True
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s | FileCheck %s
# CHECK: tlc::cuda::atomicStoreTo<int32_t>(&a[
# CHECK-NOT: __threadfence_system
# CHECK: { __threadfence_system(); tlc::cuda::atomicStoreTo<int32_t>(&b[
# CHECK: tlc::cuda::atomicStoreTo<int32_t>(&c[
# CHECK: f[{{.*}}] = (int)threadIdx.x;
# CHECK: g[{{.*}}] = (int)threadIdx.x;
# RUN: tlc-build --target=hip:gfx942 --emit=hip --no-source-lines %s | FileCheck %s --check-prefix=HIP
# HIP: { __threadfence_system(); tlc::hip::atomicStoreTo<int32_t>(&b[
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cuda %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/cuda --device sim --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# SIM: verify a: PASS
# SIM: verify g: PASS
# RUN: not tlc-build --target=cuda:sm_90a --emit=cuda -Dinvalid=1 %s 2>&1 | FileCheck %s --check-prefix=BAD
# BAD: scope 'grid' is not one of cta, gpu, sys
import tilelang
import tilelang.language as T


@tilelang.jit
def st_options(invalid=0):
    @T.prim_func
    def main(a: T.Tensor((32,), "int32"), b: T.Tensor((32,), "int32"),
             c: T.Tensor((32,), "int32"), d: T.Tensor((32,), "int32"),
             e: T.Tensor((32,), "int32"), f: T.Tensor((32,), "int32"),
             g: T.Tensor((32,), "int32")):
        with T.Kernel(1, threads=32):
            tx = T.get_thread_binding()
            T.st(a[tx], tx, scope="sys", sem="relaxed", na=False)
            T.st(b[tx], tx, scope="sys", sem="release", na=False)
            T.st(c[tx], tx, scope="cta", sem="release", na=False)
            T.st(d[tx], tx, scope="gpu", sem="relaxed", na=True)
            T.st(e[tx], tx, scope="gpu", sem="release", na=True)
            T.st(f[tx], tx, scope="gpu", sem="weak", na=False)
            if invalid:
                T.st(g[tx], tx, scope="grid", sem="weak", na=True)
            else:
                T.st(g[tx], tx, scope="gpu", sem="weak", na=True)

    return main


st_options()
