# A shared write then read by one thread (`if tx == 0:`) needs no block
# barrier: the thread's own program order orders them (issue 14; corpus44
# G3, upstream's CLC persistent GEMM). The CUDA target put one between
# them, and one at the top of the loop, so `T.loop_break` under the
# one-thread condition was refused (a barrier under a condition that may
# differ between threads). Run on the sim device (racecheck, synccheck),
# Out agrees with the CPU target. Two threads writing and reading (tx < 2)
# keep their barrier.
# REQUIRES: sim-compiler
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s | FileCheck %s
# CHECK: for (int it = 0; it < 4; it += 1) {
# CHECK-NOT: __syncthreads
# CHECK: break;
# CHECK: }
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sm90 %s > /dev/null
# RUN: tlc-run %t/sm90 --device sim --verify --reference %t/cpu 2>&1 | FileCheck %s --check-prefix=SIM
# SIM: verify Out: PASS
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines -D writers=2 -D stop=False %s | FileCheck %s --check-prefix=TWO
# TWO: for (int it = 0; it < 4; it += 1) {
# TWO: __syncthreads();
import tilelang
import tilelang.language as T


@tilelang.jit
def one_thread(writers=1, stop=True):

    @T.prim_func
    def main(Out: T.Tensor((4,), "int32")):
        with T.Kernel(1, threads=128):
            valid = T.alloc_shared((2,), "int32")
            tx = T.get_thread_binding()
            for it in T.serial(4):
                if tx < writers:
                    valid[tx] = Out[it] + tx
                    if stop:
                        if valid[tx] == 0:
                            break
                    if valid[writers - 1 - tx] == 0:
                        Out[it] = 7
                    else:
                        Out[it] = valid[tx] + 1

    return main
