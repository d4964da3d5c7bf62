# A T.macro that annotates its own buffer argument (`buf:
# T.SharedBuffer([N], dtype)`, as upstream indexer_topk_reducesum.py's
# bitonic sort does) only states the argument's type, as in TileLang: the
# shared buffer stays the argument and the kernel gets no new parameter.
# In an eager body, a name that holds no buffer still declares a tensor.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile %s | FileCheck %s --check-prefix=IR
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a %s > /dev/null
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 2 -D N=128 --save %t/out > /dev/null
# RUN: %python %S/Inputs/macro_annotates_argument_ref.py %t/out | FileCheck %s
# CHECK: PASS
# CHECK-NOT: FAIL
# IR: tile.func @kernel(%A: !tile.buffer<[N], f32, global>) symbols(N: const) {
import tilelang
import tilelang.language as T


@T.macro
def scale(buf, N):
    buf: T.SharedBuffer([N], dtype=T.float32)
    for i in T.Parallel(N):
        buf[i] = buf[i] * 2.0


@tilelang.jit
def kernel(A):
    N = T.const("N")
    A: T.Tensor([N], T.float32)
    with T.Kernel(1, threads=128):
        s = T.alloc_shared([N], T.float32)
        T.copy(A, s)
        scale(s, N)
        T.copy(s, A)


kernel(T.Tensor((128,), T.float32))
