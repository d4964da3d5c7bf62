# T.cast(value, dtype, round=, sat=, rbits=): the rounding hints are checked
# as TileLang checks them (a mode outside '', 'rn', 'rz', 'rp', 'rm', 'rs',
# a sat that is no bool, 'rs' without rbits, rbits without 'rs'), each an
# error at the argument. tlc's conversions round to nearest: the reserved
# modes build as TileLang's do; 'rs' (stochastic rounding to fp8) is
# cast-stochastic-rounding.py's. The valid kernel runs on the CPU target
# (B = 2 A).
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/art %s > /dev/null
# RUN: %python %S/Inputs/lang_eval_run.py double tlc-run %t/art %t | FileCheck %s
# RUN: not tlc-build --check -D bad=1 %s 2>&1 | FileCheck %s --check-prefix=ERR1
# RUN: not tlc-build --check -D bad=2 %s 2>&1 | FileCheck %s --check-prefix=ERR2
# RUN: not tlc-build --check -D bad=3 %s 2>&1 | FileCheck %s --check-prefix=ERR3
# RUN: not tlc-build --check -D bad=4 %s 2>&1 | FileCheck %s --check-prefix=ERR4
# RUN: tlc-build --check -D bad=5 %s 2>&1 | count 0
# CHECK: double ok
import tilelang
import tilelang.language as T


@tilelang.jit
def casts(N=128, bad=0):

    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(1, threads=N) as bx:
            tx = T.get_thread_binding()
            h = T.alloc_var("float16")
            r = T.alloc_var("int32")
            r = tx * 7
            if bad == 0:
                h = T.cast(A[tx], "float16", round="rn")
                B[tx] = T.cast(T.cast(A[tx], "float32", round="rz", sat=False), "float32") + \
                    T.cast(A[tx], "float32", round="")
            elif bad == 1:
                # ERR1: :[[@LINE+1]]:46: error: Invalid round 'nearest' for T.cast: one of '', 'rn', 'rz', 'rp', 'rm', 'rs'
                h = T.cast(A[tx], "float16", round="nearest")
            elif bad == 2:
                # ERR2: :[[@LINE+1]]:46: error: Invalid sat 1 for T.cast: a bool
                h = T.cast(A[tx], "float16", sat=1)
            elif bad == 3:
                # ERR3: :[[@LINE+1]]:46: error: rbits is required when round='rs' (stochastic rounding)
                h = T.cast(A[tx], "float16", round="rs")
            elif bad == 4:
                # ERR4: :[[@LINE+1]]:58: error: rbits is only valid with round='rs' (stochastic rounding)
                h = T.cast(A[tx], "float16", round="rn", rbits=r)
            else:
                h = T.cast(A[tx], "float8_e4m3fn", round="rs", rbits=r)
                B[tx] = h

    return main
