# A T.Parallel dealt out by a fragment's layout that stores into per-thread
# buffers (T.alloc_local, T.alloc_var): on the GPU targets iteration i runs
# on the thread holding f[i], each thread runs its iterations in register
# order, and every thread has its own copy of `l` and `acc`. The CPU target
# gives those buffers one copy per thread and runs such loops from a table
# of owners in each thread's register order (it ran one sequential loop over
# a single copy: every B[i] was 2 * A[127] + 3).
# f's layout is given: element i on thread i % 128, register 1 - i // 128,
# so each thread's register order (i + 128, then i) is not the row-major one.
# RUN: tlc-build --check %s 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
# CLEAN-NOT: warning
# RUN: tlc-build --target=cpu --emit=cpp %s 2>&1 | FileCheck %s --check-prefix=CPP
# CPP-NOT: warning
# CPP: l: float32 [1], local, one per thread
# CPP: static const int32_t owners[] = {
# CPP-NEXT: 128, 0, 0, 0, 129, 1, 1, 1,
# CPP: const int64_t tlc_t = owners[2 * k + 1];
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --seed 3 --save %t/out
# RUN: %python %S/Inputs/parallel_fragment_local_store_check.py %t/out | FileCheck %s --check-prefix=REF
# REF: B ok
# REF: C ok
# The generated CUDA on the sim device gives the CPU target's values.
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cuda %s 2>/dev/null >/dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/cuda --device sim --verify --reference %t/art --seed 3 | FileCheck %s --check-prefix=SIM %}
# SIM: verify B: PASS
# SIM: verify C: PASS
import tilelang
import tilelang.language as T


@tilelang.jit
def spread(A: T.Tensor((256,), "float32"), B: T.Tensor((256,), "float32"),
           C: T.Tensor((256,), "float32")):
    with T.Kernel(1, threads=128) as _:
        f = T.alloc_fragment((256,), "float32")
        g = T.alloc_fragment((256,), "float32")
        T.annotate_layout({
            f: T.Fragment((256,), forward_thread_fn=lambda i: i % 128,
                          forward_index_fn=lambda i: 1 - i // 128),
            g: T.Fragment((256,), forward_thread_fn=lambda i: i % 128,
                          forward_index_fn=lambda i: 1 - i // 128),
        })
        l = T.alloc_local((1,), "float32")
        acc = T.alloc_var("float32", init=0.0)
        T.copy(A, f)
        for i in T.Parallel(256):
            l[0] = f[i] * 2.0
            acc = acc * 0.5 + f[i]
        for i in T.Parallel(256):
            f[i] = l[0] + 3.0
            g[i] = acc
        T.copy(f, B)
        T.copy(g, C)
