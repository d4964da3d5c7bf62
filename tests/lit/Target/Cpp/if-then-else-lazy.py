# T.if_then_else(cond, a, b) evaluates only the operand it picks (TIR's
# if_then_else, unlike T.Select): a load in the other operand never runs,
# so `T.if_then_else(tx >= d, s[tx - d], 0)` does not read s[-1]. The CPU
# target used to compute both operands first and failed the run with
# "index out of range" on valid programs (a shifted scan, a guarded tail).
# Now the ops that compute one operand alone, a load among them, run in the
# branch of an if/else that picks it. A load whose value is read after a
# store keeps its place (it is not moved past the write), and an operand
# that is picked still has its load checked. Checked against NumPy.
# RUN: tlc-build --check %s
# RUN: tlc-build --target=cpu --emit=cpp --kernel=shifted %s | FileCheck %s --check-prefix=CPP
# CPP:      float [[V:v_[0-9]+]]{};
# CPP-NEXT: if ([[C:v(_[0-9]+)?]]) {
# CPP:        const float [[X:x_[0-9]+]] = tlc::cpu::loadChecked(st, "{{.*}}if-then-else-lazy.py:[[# @LINE + 29]]:{{[0-9]+}}", {{.*}});
# CPP:        [[V]] = v_{{[0-9]+}};
# CPP-NEXT: } else {
# CPP-NEXT:   [[V]] = -1.0f;
# CPP-NEXT: }
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --kernel shifted --seed 3 --save %t/s > /dev/null
# RUN: tlc-run %t/cpu --kernel tail --seed 4 --save %t/t > /dev/null
# RUN: tlc-run %t/cpu --kernel reread --seed 5 --save %t/r > /dev/null
# RUN: %python %S/Inputs/if_then_else_lazy_check.py %t/s %t/t %t/r | FileCheck %s
# CHECK: shifted OK
# CHECK: tail OK
# CHECK: reread OK
# RUN: not tlc-run %t/cpu --kernel picked_out_of_range 2>&1 | FileCheck %s --check-prefix=OOR
# OOR: if-then-else-lazy.py:[[# @LINE + 61]]:{{[0-9]+}}: error: index out of range of an on-chip buffer
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def shifted(n=64, d=3):

    @T.prim_func
    def main(A: T.Tensor((n,), T.float32), B: T.Tensor((n,), T.float32)):
        with T.Kernel(1, threads=n):
            tx = T.get_thread_binding()
            s = T.alloc_shared((n,), T.float32)
            s[tx] = A[tx]
            T.sync_threads()
            B[tx] = T.if_then_else(tx >= d, s[tx - d] * 2.0, -1.0)

    return main


@tilelang.jit(out_idx=[1])
def tail(n=37, block=16):

    @T.prim_func
    def main(A: T.Tensor((n,), T.float32), B: T.Tensor((T.ceildiv(n, block) * block,), T.float32)):
        with T.Kernel(T.ceildiv(n, block), threads=block) as bx:
            for i in T.Parallel(block):
                g = bx * block + i
                # nested: the inner load runs only where both conditions hold
                B[g] = T.if_then_else(g >= 1, T.if_then_else(g < n, A[g - 1] + A[g], 5.0) + 1.0, 0.0)

    return main


@tilelang.jit(out_idx=[1])
def reread(n=32):

    @T.prim_func
    def main(A: T.Tensor((n,), T.int32), B: T.Tensor((n,), T.int32)):
        with T.Kernel(1, threads=n):
            tx = T.get_thread_binding()
            s = T.alloc_shared((n,), T.int32)
            s[tx] = A[tx]
            old = s[tx]
            s[tx] = 7
            B[tx] = T.if_then_else(tx % 2 == 0, old, s[tx])

    return main


@tilelang.jit(out_idx=[1])
def picked_out_of_range(n=32):

    @T.prim_func
    def main(A: T.Tensor((n,), T.int32), B: T.Tensor((n,), T.int32)):
        with T.Kernel(1, threads=n):
            tx = T.get_thread_binding()
            s = T.alloc_shared((n,), T.int32)
            s[tx] = A[tx]
            T.sync_threads()
            # thread 0 picks s[-1]: a real error
            B[tx] = T.if_then_else(tx < n, s[tx - 1], 0)

    return main


shifted()
tail()
reread()
picked_out_of_range()
