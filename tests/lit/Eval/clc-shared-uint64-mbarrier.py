# RUN: tlc-build --target=cuda:sm_100a --check %s 2>&1 | count 0
# RUN: not tlc-build --target=cuda:sm_100a -o %t %s 2>&1 | FileCheck %s
# T.clc_try_cancel(_multicast) completes on an mbarrier; a one-element
# shared uint64 buffer is one as well as an element of T.alloc_barrier is.
# --check accepts it; building refuses it at the argument (tlc generates the
# cancel only on T.alloc_barrier elements).
import tilelang.language as T


@T.prim_func
def cancel_probe(out: T.Tensor((2,), T.uint32)):
    with T.Kernel(1, threads=1):
        response = T.alloc_shared((4,), T.uint32)
        bar = T.alloc_shared((1,), T.uint64)
        # CHECK: [[@LINE+1]]:36: error: cannot build this kernel: T.clc_try_cancel on a shared uint64 buffer
        T.clc_try_cancel(response, bar)
        out[0] = T.Cast("uint32", T.clc_is_canceled(response))
        out[1] = T.clc_get_first_ctaid_x(response)
