# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# Group D (+C): Python syntax inside a traced body: tuple swap of two
# T.alloc_var values, a Python ternary on a PrimExpr (-> if_then_else),
# chained comparisons and `and`/`not`, range(start, stop, step) over
# PrimExpr bounds, augmented stores, negative literal indices, .astype.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def fib_like(N, steps=16, threads=128):
    @T.prim_func
    def main(Seed: T.Tensor((N, 2), T.int32), Lo: T.Tensor((N,), T.int32), Out: T.Tensor((N,), T.float32)):
        with T.Kernel(T.ceildiv(N, threads), threads=threads) as bx:
            a = T.alloc_var(T.int32)
            b = T.alloc_var(T.int32)
            hist = T.alloc_local((4,), T.int32)
            tx = T.get_thread_binding()
            i = bx * threads + tx
            T.clear(hist)
            if i < N:
                a = Seed[i, 0]
                b = Seed[i, -1]
                for s in range(Lo[i], steps, 2):
                    a, b = b, a + b
                    hist[s % 4] += 1
                small = 0 <= a < 1000 and not (b < 0)
                hist[-1] += 1 if small else 0
                Out[i] = (a if a > b else b).astype(T.float32) + hist[3]

    return main


kernel = fib_like(100000)

# CHECK: "name":"Seed","kind":"tensor","shape":[100000,2],"dtype":"int32","scope":"global","layout":null
# CHECK: "name":"bx","kind":"kernel","shape":[782],{{.*}}"detail":"128 threads"
# CHECK: "name":"a","kind":"buffer","shape":[1],"dtype":"int32","scope":"local.var","layout":null
# CHECK: "name":"hist","kind":"buffer","shape":[4],"dtype":"int32","scope":"local","layout":null
