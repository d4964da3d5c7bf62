# parallel-fragment-local-store.py in a kernel with per-thread code (it
# reads T.get_thread_binding): `l` already has a copy per thread there, and
# the T.Parallel dealt out by f's layout, a tile operation run once for the
# block, was refused ("cannot run this tile operation on a T.alloc_local /
# T.alloc_var buffer"); it now runs each iteration on its owning thread's
# copy, and thread t's own statement `C[t] = l[0]` reads what its last
# iteration (register 1: f[t]) stored.
# RUN: tlc-build --target=cpu --emit=cpp %s 2>&1 | FileCheck %s --check-prefix=CPP
# CPP-NOT: warning
# CPP-NOT: error:
# CPP: const int64_t tlc_t = owners[2 * k + 1];
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --seed 3 --save %t/out
# RUN: %python %S/Inputs/parallel_fragment_local_store_threads_check.py %t/out | FileCheck %s --check-prefix=REF
# REF: B ok
# REF: C ok
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cuda %s 2>/dev/null >/dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/cuda --device sim --verify --reference %t/art --seed 3 | FileCheck %s --check-prefix=SIM %}
# SIM: verify B: PASS
# SIM: verify C: PASS
import tilelang
import tilelang.language as T


@tilelang.jit
def spread_threaded(A: T.Tensor((256,), "float32"), B: T.Tensor((256,), "float32"),
                    C: T.Tensor((128,), "float32")):
    with T.Kernel(1, threads=128) as _:
        tx = T.get_thread_binding()
        f = T.alloc_fragment((256,), "float32")
        T.annotate_layout({
            f: T.Fragment((256,), forward_thread_fn=lambda i: i % 128,
                          forward_index_fn=lambda i: 1 - i // 128),
        })
        l = T.alloc_local((1,), "float32")
        T.copy(A, f)
        for i in T.Parallel(256):
            l[0] = f[i] * 2.0
        C[tx] = l[0]
        for i in T.Parallel(256):
            f[i] = l[0] + 3.0
        T.copy(f, B)
