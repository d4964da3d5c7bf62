# T.__ldg (a load through the read-only data cache) is the value of the load:
# T.__ldg(x[i]) of an element, T.__ldg(buf, i) of a 1-D buffer's element i
# (also with a one-index list). Run on the CPU target and compared with
# Python (B = 2 A); the CUDA build compiles it. Bad arguments are errors at
# the call.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/art %s > /dev/null
# RUN: %python %S/Inputs/lang_eval_run.py double tlc-run %t/art %t | FileCheck %s
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda %s > /dev/null
# RUN: not tlc-build --check -D bad=1 %s 2>&1 | FileCheck %s --check-prefix=ERR1
# RUN: not tlc-build --check -D bad=2 %s 2>&1 | FileCheck %s --check-prefix=ERR2
# RUN: not tlc-build --check -D bad=3 %s 2>&1 | FileCheck %s --check-prefix=ERR3
# RUN: not tlc-build --check -D bad=4 %s 2>&1 | FileCheck %s --check-prefix=ERR4
# RUN: not tlc-build --check -D bad=5 %s 2>&1 | FileCheck %s --check-prefix=ERR5
# CHECK: double ok
import tilelang
import tilelang.language as T


@tilelang.jit
def read_only(N=256, block=64, bad=0):

    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(T.ceildiv(N, block), threads=block) as bx:
            tx = T.get_thread_binding()
            g = bx * block + tx
            if bad == 0:
                B[g] = T.__ldg(A[g]) + T.__ldg(A, [g]) * 0.5 + T.__ldg(A, g) * 0.5
            elif bad == 1:
                # ERR1: :[[@LINE+1]]:24: error: T.__ldg(buffer, index) needs an index when given a buffer
                B[g] = T.__ldg(A)
            elif bad == 2:
                M = T.alloc_shared((4, 16), "float32")
                # ERR2: :[[@LINE+1]]:39: error: T.__ldg(buffer, index) takes a 1-D buffer; index an element instead (T.__ldg(x[i, j]))
                B[g] = A[g] + T.__ldg(M, 3)
            elif bad == 3:
                # ERR3: :[[@LINE+1]]:38: error: T.__ldg takes an index only with a buffer; x[i] is already one element
                B[g] = T.__ldg(A[g], 2)
            elif bad == 4:
                # ERR4: :[[@LINE+1]]:35: error: T.__ldg takes one flat index, got 2
                B[g] = T.__ldg(A, (g, 0))
            else:
                # ERR5: :[[@LINE+1]]:32: error: T.__ldg expects an element load (x[i]) or a buffer, not float
                B[g] = T.__ldg(2.0)

    return main
