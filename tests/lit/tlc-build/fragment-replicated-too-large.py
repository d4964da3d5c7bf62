# RUN: tlc-build --verify-diagnostics %s
# RUN: tlc-build --emit=hints --format=json %s 2>/dev/null | FileCheck %s
# RUN: rm -rf %t && not tlc-build --target=cuda:sm_90a -o %t %s 2>&1 | FileCheck %s --check-prefix=BUILD
# Huge fragments whose size does not divide among the threads: tlc-fuzz-eval
# found a (3**12,) fragment over 256 threads that, held whole by every
# thread, took 7 GiB and minutes to tabulate for the editor's hints, so such
# fragments were refused at once. Since session 38 the default layout deals
# a non-dividing fragment out over the threads with a guarded last round
# (2076 and 782 registers a thread here), so the editor answers at once
# and --check has nothing to say: a program error it is not. What the CUDA
# target cannot do is reported when building for it: reading `part` at one
# index outside every T.Parallel exchanges it through shared memory, 2 MiB.
import tilelang
import tilelang.language as T


@tilelang.jit
def scalar_read(N=4096, threads=256):

    @T.prim_func
    def main(X: T.Tensor((N,), T.float32), Out: T.Tensor((1,), T.float32)):
        with T.Kernel(4, threads=threads) as cta:
            part = T.alloc_fragment((3**12,), T.float32)
            acc = T.alloc_var(T.float32, 0)
            acc += part[N - 1]
            Out[0] = acc

    return main


@tilelang.jit
def ragged(threads=128):

    @T.prim_func
    def main(Out: T.Tensor((1,), T.float32)):
        with T.Kernel(1, threads=threads):
            big = T.alloc_fragment((100003,), T.float32)
            T.fill(big, 0)
            Out[0] = 1.0

    return main


@tilelang.jit
def small_read(threads=128):

    @T.prim_func
    def main(Out: T.Tensor((1,), T.float32)):
        with T.Kernel(1, threads=threads):
            few = T.alloc_fragment((8,), T.float32)
            T.fill(few, 2.0)
            Out[0] = few[3]

    return main


scalar_read()
ragged()
small_read()

# The editor's hints: the guarded partitions, and the small fragment read
# outside T.Parallel as every thread's own copy.
# CHECK: "name":"part","kind":"buffer","shape":[531441],{{.*}}"layout":"parallel · 2076 regs/thread"
# CHECK: "name":"big","kind":"buffer","shape":[100003],{{.*}}"layout":"parallel · 782 regs/thread"
# CHECK: "name":"few","kind":"buffer","shape":[8],{{.*}}"layout":"replicated

# BUILD: fragment-replicated-too-large.py:[[@LINE-45]]:14: error: the kernel needs 2125764 bytes of shared memory per block on the CUDA target (0 for its buffers, 2125764 to exchange fragments); sm_90 allows 232448
# BUILD-NOT: error
