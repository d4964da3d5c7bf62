# T.copy into or out of a T.alloc_local buffer is each thread's own: every
# thread copies the whole region for its registers (TileLang does not
# partition such a copy over the threads). The CUDA/HIP targets partitioned
# it as a block copy (`q = c * 64 + tid; if (q < 1)`): only thread 0 loaded
# its registers and stored them back, every other thread's result was
# missing (a silent wrong answer on a GPU; the sim device's compiler took
# the uninitialised registers as licence to drop the guard, so it passed
# there). The CPU target refused them ("cannot keep a view that differs
# between threads"). Checked against NumPy on the CPU target and on sim
# for sm_80, sm_90a and gfx942; nvcc builds them.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda --kernel=scalar_local --no-source-lines %s | FileCheck %s --check-prefix=CUDA
# CUDA: // T.copy
# CUDA: for (int [[C:c[_0-9]*]] = 0; [[C]] < 1; ++[[C]]) {
# CUDA-NEXT: const int {{q[_0-9]*}} = [[C]];  // chunk
# CUDA-NOT: tid
# CUDA: l[0] =
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --save %t/cpu-out > /dev/null
# RUN: %python %S/Inputs/local_copy_check.py %t/cpu-out | FileCheck %s
# CHECK-COUNT-4: PASS
# CHECK-NOT: FAIL
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sm90 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm90 --device sim --save %t/sm90-out > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/local_copy_check.py %t/sm90-out | FileCheck %s %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/sm80 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm80 --device sim --save %t/sm80-out > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/local_copy_check.py %t/sm80-out | FileCheck %s %}
# RUN: %if hip-toolchain %{ tlc-build --target=hip:gfx942 -o %t/hip %s > /dev/null %}
# RUN: %if hip-toolchain %{ tlc-run %t/hip --device sim --save %t/hip-out > /dev/null %}
# RUN: %if hip-toolchain %{ %python %S/Inputs/local_copy_check.py %t/hip-out | FileCheck %s %}
# RUN: %if nvcc %{ tlc-build --target=cuda:sm_80 -o %t/nvcc %s | FileCheck %s --check-prefix=NVCC %}
# NVCC-COUNT-4: wrote {{.*}}.{{cubin|fatbin}}
import tilelang
import tilelang.language as T


@tilelang.jit
def scalar_local():
    @T.prim_func
    def main(A: T.Tensor((64,), "float16"), B: T.Tensor((64,), "float16")):
        with T.Kernel(1, threads=64):
            l = T.alloc_local((), "float16")
            tx = T.get_thread_binding()
            T.copy(A[tx], l)
            l[()] = l[()] * T.float16(2)
            T.copy(l, B[tx])
    return main


@tilelang.jit
def row_local():
    @T.prim_func
    def main(A: T.Tensor((64, 8), "float32"), B: T.Tensor((64, 8), "float32")):
        with T.Kernel(1, threads=64):
            l = T.alloc_local((8,), "float32")
            tx = T.get_thread_binding()
            T.copy(A[tx, :], l)
            for j in T.serial(8):
                l[j] = l[j] * j
            T.copy(l, B[tx, :])
    return main


@tilelang.jit
def converting_local():
    @T.prim_func
    def main(A: T.Tensor((2, 128, 4), "float32"),
             B: T.Tensor((2, 128, 4), "float32")):
        with T.Kernel(2, threads=128) as bx:
            l = T.alloc_local((4,), "float16")
            tx = T.get_thread_binding()
            T.copy(A[bx, tx, 0:4], l)
            T.copy(l, B[bx, tx, 0:4])
    return main


@tilelang.jit
def shared_to_local():
    @T.prim_func
    def main(A: T.Tensor((32, 4), "float32"), B: T.Tensor((32,), "float32")):
        with T.Kernel(1, threads=32):
            s = T.alloc_shared((32, 4), "float32")
            l = T.alloc_local((4,), "float32")
            tx = T.get_thread_binding()
            T.copy(A, s)
            T.copy(s[31 - tx, :], l)
            B[tx] = l[0] + l[1] + l[2] + l[3]
    return main
