# RUN: tlc-build --target=cuda:sm_100a --check %s 2>&1 | count 0
# RUN: tlc-build --target=cuda:sm_100a --emit=cuda --no-source-lines %s | FileCheck %s
# RUN: tlc-build --target=cpu --emit=cpp %s | FileCheck %s --check-prefix=CPP
# T.clc_try_cancel(_multicast) completes on an mbarrier; a one-element
# shared uint64 buffer is one as well as an element of T.alloc_barrier is
# (upstream issue 2602's test declares it so, and TileLang passes its
# address): both targets build the cancel on that word. Before, building
# refused it ("tlc builds it on an element of T.alloc_barrier").
# CHECK: uint64_t *bar = reinterpret_cast<uint64_t *>(smem
# CHECK: tlc::cuda::clcTryCancel((const void *)&response[0], &bar[0]);
# CPP: tlc::cpu::clcTryCancel(st, "{{.*}}", &{{.*}}.at({0}), &{{.*}}.at({0}), false);
import tilelang.language as T


@T.prim_func
def cancel_probe(out: T.Tensor((2,), T.uint32)):
    with T.Kernel(1, threads=1):
        response = T.alloc_shared((4,), T.uint32)
        bar = T.alloc_shared((1,), T.uint64)
        T.clc_try_cancel(response, bar)
        out[0] = T.Cast("uint32", T.clc_is_canceled(response))
        out[1] = T.clc_get_first_ctaid_x(response)
