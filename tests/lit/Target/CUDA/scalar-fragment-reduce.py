# A small fragment that only scalar code writes and T.reduce then reads
# (`s[0] = x; T.reduce_sum(s, d)`) is every thread's own copy, as a
# fragment only scalar code uses is: each thread reduces its registers, no
# lane exchange. The CUDA and HIP targets laid the source out as a
# distributed fragment and refused the scalar store ("accesses fragments
# only inside a T.Parallel ..."). Checked against NumPy on the CPU target
# and on the sim device (sm_80, sm_90a).
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --kernel=one_element --no-source-lines %s | FileCheck %s --check-prefix=ONE
# ONE: float acc[1];  // replicated · 1 reg/thread · rep 128
# ONE: acc[0] = 1.0f;
# ONE: // T.reduce_sum
# ONE-NOT: shuffle
# ONE: }
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda --kernel=rows --no-source-lines %s | FileCheck %s --check-prefix=ROWS
# ROWS: float src[8];  // replicated · 8 regs/thread · rep 64
# ROWS: // T.reduce_max
# ROWS-NOT: shuffle
# ROWS: if (
# RUN: tlc-build --target=hip:gfx942 --emit=hip --kernel=rows --no-source-lines %s | FileCheck %s --check-prefix=HIP
# HIP: // T.reduce_max
# HIP-NOT: error
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 3 --save %t/cpu-out > /dev/null
# RUN: %python %S/Inputs/scalar_fragment_reduce_check.py %t/cpu-out | FileCheck %s
# CHECK: one_element PASS
# CHECK: rows PASS
# CHECK-NOT: FAIL
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/sm80 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm80 --device sim --seed 3 --save %t/sm80-out > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/scalar_fragment_reduce_check.py %t/sm80-out | FileCheck %s %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sm90 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm90 --device sim --seed 3 --save %t/sm90-out > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/scalar_fragment_reduce_check.py %t/sm90-out | FileCheck %s %}
import tilelang
import tilelang.language as T


@tilelang.jit
def one_element():
    @T.prim_func
    def main(A: T.Tensor((4,), "float32"), B: T.Tensor((128,), "float32")):
        with T.Kernel(1, threads=128):
            acc = T.alloc_fragment((1,), "float32")
            total = T.alloc_fragment((1,), "float32")
            acc[0] = 1
            T.reduce_sum(acc, total)
            B[T.get_thread_binding()] = total[0] + A[2]
    return main


@tilelang.jit
def rows():
    @T.prim_func
    def main(A: T.Tensor((4,), "float32"), B: T.Tensor((2,), "float32")):
        with T.Kernel(1, threads=64):
            src = T.alloc_fragment((2, 4), "float32")
            dst = T.alloc_fragment((2,), "float32")
            for r in T.serial(2):
                for c in T.serial(4):
                    src[r, c] = A[c] * (r * 2 - 1)
            T.reduce_max(src, dst, dim=1)
            if T.get_thread_binding() == 37:
                B[0] = dst[0]
                B[1] = dst[1]
    return main
