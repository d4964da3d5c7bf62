# RUN: tlc-build --verify-diagnostics %s
# RUN: not tlc-build --emit=hints --format=json %s 2>/dev/null | FileCheck %s
# A fragment that every thread would hold whole (read outside every
# T.Parallel, or of a size that does not divide among the threads) is
# refused at once when that takes more than 2^22 thread x element slots:
# tlc-fuzz-eval found a (3**12,) fragment over 256 threads that took 7 GiB
# and minutes to tabulate for the editor's hints. Smaller ones still build.
import tilelang
import tilelang.language as T


@tilelang.jit
def scalar_read(N=4096, threads=256):

    @T.prim_func
    def main(X: T.Tensor((N,), T.float32), Out: T.Tensor((1,), T.float32)):
        with T.Kernel(4, threads=threads) as cta:
            part = T.alloc_fragment((3**12,), T.float32)
            acc = T.alloc_var(T.float32, 0)
            # expected-error@+1 {{fragment 'part' of 531441 elements is read or written outside every T.Parallel, so every thread would hold all of it (531441 registers per thread; the limit is 255)}}
            acc += part[N - 1]
            Out[0] = acc

    return main


@tilelang.jit
def ragged(threads=128):

    @T.prim_func
    def main(Out: T.Tensor((1,), T.float32)):
        with T.Kernel(1, threads=threads):
            # expected-error@+1 {{fragment 'big' of 100003 elements does not divide among 128 threads, so every thread would hold all of it (100003 registers per thread; the limit is 255)}}
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

# The editor's hints answer too: the refused fragment has no layout, the
# small one read outside T.Parallel is every thread's own copy.
# CHECK: "name":"part","kind":"buffer","shape":[531441],{{.*}}"layout":null
# CHECK: "name":"few","kind":"buffer","shape":[8],{{.*}}"layout":"replicated
