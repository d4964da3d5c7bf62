# T.if_then_else(cond, a, b) evaluates only the operand it picks on the CUDA
# and HIP targets too: the load of the operand not picked runs in the
# other branch of an if/else, never before the choice. The printers used
# to hoist `const float x = s[tx - 3];` above `cond ? x : -1.0f`, an
# out-of-bounds shared read at tx < 3 (global loads carry their own
# guard). Shapes: a shared operand, both operands loading (each out of
# range where it is not picked), a nested T.if_then_else, a global operand
# and a T.Parallel body. The analysis is the CPU target's
# (tlc/Target/Cpp/LazySelect.h). Run on the sim device, whose memcheck
# reports a read below shared memory, and on the CPU target, each against
# NumPy.
# RUN: tlc-build --check %s
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda %s | FileCheck %s --check-prefixes=GPU,CUDA
# RUN: tlc-build --target=hip:gfx942 --emit=hip %s | FileCheck %s --check-prefix=GPU
# Nothing is read from `s` between the barrier and the first choice.
# GPU:      __syncthreads();
# GPU-NOT:  s[
# GPU:      float [[V0:t_[0-9]+]];
# GPU-NEXT: if ([[C0:t(_[0-9]+)?]]) {
# GPU-NEXT:   const int [[I0:t_[0-9]+]] = ((int)threadIdx.x - 3);
# GPU-NEXT:   const float [[X0:x_[0-9]+]] = s[[[I0]]];
# GPU:        [[V0]] = t_{{[0-9]+}};
# GPU-NEXT: } else {
# GPU-NEXT:   [[V0]] = -1.0f;
# GPU-NEXT: }
# Both operands load: each in its own branch.
# GPU:      float [[V1:t_[0-9]+]];
# GPU-NEXT: if (t_{{[0-9]+}}) {
# GPU-NEXT:   const int [[I1:t_[0-9]+]] = ((int)threadIdx.x + 1);
# GPU-NEXT:   const float [[X1:x_[0-9]+]] = s[[[I1]]];
# GPU-NEXT:   [[V1]] = [[X1]];
# GPU-NEXT: } else {
# GPU-NEXT:   const int [[I2:t_[0-9]+]] = ((int)threadIdx.x - 1);
# GPU-NEXT:   const float [[X2:x_[0-9]+]] = s[[[I2]]];
# GPU-NEXT:   [[V1]] = [[X2]];
# GPU-NEXT: }
# Nested: the inner choice sits in the outer one's first branch.
# GPU:      float [[V2:t_[0-9]+]];
# GPU-NEXT: if (t_{{[0-9]+}}) {
# GPU-NEXT:   const bool [[C3:t_[0-9]+]] = ((int)threadIdx.x < 63);
# GPU-NEXT:   float [[V3:t_[0-9]+]];
# GPU-NEXT:   if ([[C3]]) {
# GPU:          s[
# GPU:        } else {
# GPU:          s[
# GPU:        }
# GPU-NEXT:   [[V2]] = [[V3]];
# GPU-NEXT: } else {
# GPU-NEXT:   const int [[I4:t_[0-9]+]] = ((int)threadIdx.x + 1);
# GPU-NEXT:   const float {{x_[0-9]+}} = s[[[I4]]];
# A global operand (with its own guard) is read in its branch too.
# GPU:      if (t_{{[0-9]+}}) {
# GPU-NEXT:   const int [[I5:t_[0-9]+]] = ((int)threadIdx.x + 5);
# GPU-NEXT:   const float {{x_[0-9]+}} = ([[I5]] < 64) ? float(A[[[I5]]]) : float(0);
# GPU:      } else {
# GPU-NEXT:   t_{{[0-9]+}} = 0.5f;
# In a T.Parallel body.
# CUDA:     // T.Parallel
# CUDA:     if (t_{{[0-9]+}}) {
# CUDA-NEXT:  const int [[I6:t_[0-9]+]] = (i0 - 2);
# CUDA-NEXT:  const float {{x_[0-9]+}} = s[[[I6]]];
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 7 --save %t/c > /dev/null
# RUN: %python %S/Inputs/if_then_else_lazy_check.py %t/c | FileCheck %s --check-prefix=ORACLE
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/cuda %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/cuda --device sim --seed 7 --save %t/s > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/if_then_else_lazy_check.py %t/s | FileCheck %s --check-prefix=ORACLE %}
# ORACLE: row 0 OK
# ORACLE: row 1 OK
# ORACLE: row 2 OK
# ORACLE: row 3 OK
# ORACLE: row 4 OK
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def picks(n=64):

    @T.prim_func
    def main(A: T.Tensor((n,), T.float32), B: T.Tensor((5, n), T.float32)):
        with T.Kernel(1, threads=n):
            tx = T.get_thread_binding()
            s = T.alloc_shared((n,), T.float32)
            s[tx] = A[tx]
            T.sync_threads()
            B[0, tx] = T.if_then_else(tx >= 3, s[tx - 3] * 2.0, -1.0)
            B[1, tx] = T.if_then_else(tx % 2 == 0, s[tx + 1], s[tx - 1])
            B[2, tx] = T.if_then_else(tx >= 1, T.if_then_else(tx < n - 1, s[tx - 1] + s[tx + 1], s[tx - 1]), s[tx + 1])
            B[3, tx] = T.if_then_else(tx + 5 < n, A[tx + 5], 0.5)
            for i in T.Parallel(n):
                B[4, i] = T.if_then_else(i >= 2, s[i - 2] - s[i], s[i])

    return main
