# Rank-0 on-chip buffers: `T.alloc_fragment((), dtype)` (one value, read
# and written as `buf[()]`; `buf[0]` is an index-count error, as in
# TileLang), `T.alloc_local(())` (one value per thread) and
# `T.alloc_shared(())` (one per block), and reductions into a rank-0
# output (`T.reduce_sum(x, out)`, `T.reduce_argmax(x, out, -1)`, TileLang's
# test_tilelang_language_arg_reduce.py with shape (128,)). The CPU target
# could not declare them (`Local<T, 0>`), and the CUDA/HIP fragment
# exchange addressed the one element as `exchanged[]` (since issue 13 a
# rank-0 fragment is held by every thread and needs no exchange). Checked
# against NumPy on the CPU target and on the sim device for every GPU
# target.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --save %t/cpu-out > /dev/null
# RUN: %python %S/Inputs/rank0_buffers_check.py %t/cpu-out | FileCheck %s
# CHECK-COUNT-6: PASS
# CHECK-NOT: FAIL
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --kernel=argmax_vec %s | FileCheck %s --check-prefix=CUDA
# CUDA: int32_t dst[1];  // replicated · 1 reg/thread · rep 64
# CUDA-NOT: []
# CUDA: dst[0] = t_{{[0-9]+}};
# CUDA-NOT: []
# CUDA: B[0] = dst[
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sm90 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm90 --device sim --save %t/sm90-out > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/rank0_buffers_check.py %t/sm90-out | FileCheck %s %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/sm80 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm80 --device sim --save %t/sm80-out > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/rank0_buffers_check.py %t/sm80-out | FileCheck %s %}
# RUN: %if hip-toolchain %{ tlc-build --target=hip:gfx942 -o %t/hip %s > /dev/null %}
# RUN: %if hip-toolchain %{ tlc-run %t/hip --device sim --save %t/hip-out > /dev/null %}
# RUN: %if hip-toolchain %{ %python %S/Inputs/rank0_buffers_check.py %t/hip-out | FileCheck %s %}
# RUN: %if nvcc %{ tlc-build --target=cuda:sm_80 -o %t/nvcc %s | FileCheck %s --check-prefix=NVCC %}
# NVCC-COUNT-6: wrote {{.*}}.{{cubin|fatbin}}
# RUN: not tlc-build --check --no-source-lines %S/Inputs/rank0_index.py 2>&1 | FileCheck %s --check-prefix=INDEX
# INDEX: rank0_index.py:11:13: error: buffer 's' has 0 dimensions but 1 index was given
import tilelang
import tilelang.language as T


@tilelang.jit
def argmax_vec():
    @T.prim_func
    def main(A: T.Tensor((128,), "float32"), B: T.Tensor((), "int32")):
        with T.Kernel(1, threads=64):
            src = T.alloc_fragment((128,), "float32")
            dst = T.alloc_fragment((), "int32")
            T.copy(A, src)
            T.reduce_argmax(src, dst, -1)
            T.copy(dst[()], B[()])
    return main


@tilelang.jit
def sum_vec():
    @T.prim_func
    def main(A: T.Tensor((256,), "float32"), B: T.Tensor((), "float32")):
        with T.Kernel(1, threads=128):
            src = T.alloc_fragment((256,), "float32")
            dst = T.alloc_fragment((), "float32")
            T.copy(A, src)
            T.reduce_sum(src, dst)
            B[()] = dst[()]
    return main


@tilelang.jit
def local_acc():
    @T.prim_func
    def main(A: T.Tensor((4, 8), "float32"), B: T.Tensor((4,), "float32")):
        with T.Kernel(1, threads=4):
            acc = T.alloc_local((), "float32")
            tx = T.get_thread_binding()
            acc[()] = 0
            for i in T.serial(8):
                acc[()] += A[tx, i]
            B[tx] = acc[()]
    return main


@tilelang.jit
def shared_scalar():
    @T.prim_func
    def main(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
        with T.Kernel(1, threads=64):
            s = T.alloc_shared((), "float32")
            tx = T.get_thread_binding()
            if tx == 0:
                s[()] = A[3]
            T.sync_threads()
            B[tx] = A[tx] + s[()]
    return main


@tilelang.jit
def max_sum_accumulate():
    @T.prim_func
    def main(A: T.Tensor((2, 64), "float32"), B: T.Tensor((), "float32"),
             C: T.Tensor((), "float32")):
        with T.Kernel(1, threads=64):
            src = T.alloc_fragment((64,), "float32")
            m = T.alloc_fragment((), "float32")
            f = T.alloc_fragment((), "float32")
            T.fill(f, -T.infinity("float32"))
            T.clear(m)
            for k in T.serial(2):
                T.copy(A[k, :], src)
                T.reduce_max(src, f, clear=False)
                T.reduce_sum(src, m, clear=False)
            T.copy(f, B)
            T.copy(m, C)
    return main


@tilelang.jit
def fragment_scalar_in_parallel():
    @T.prim_func
    def main(A: T.Tensor((128,), "float32"), B: T.Tensor((128,), "float32")):
        with T.Kernel(1, threads=128):
            x = T.alloc_fragment((128,), "float32")
            s = T.alloc_fragment((), "float32")
            T.copy(A, x)
            T.reduce_sum(x, s)
            for i in T.Parallel(128):
                x[i] = x[i] - s[()] / 128
            T.copy(x, B)
    return main
