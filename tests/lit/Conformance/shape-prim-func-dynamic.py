# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# Shape: module @T.prim_func with T.dynamic, scalar arg, T.annotate_pass_configs/compile_flags.
# G/L: T.floordiv/floormod/truncdiv/truncmod, T.shift_left, T.bitwise_and, T.cast.
import tilelang
import tilelang.language as T

rows = T.dynamic("rows")
cols = T.dynamic("cols")
BLOCK = 256


@T.prim_func
def bucketize(X: T.Tensor((rows, cols), T.int32), nbuckets: T.int32, Out: T.Tensor((rows, cols), T.int32)):
    T.annotate_pass_configs({"tl.disable_safe_memory_legalize": False})
    T.annotate_compile_flags(["-lineinfo"])
    with T.Kernel(T.ceildiv(cols, BLOCK), rows, threads=BLOCK) as (bx, by):
        vals = T.alloc_fragment((BLOCK,), T.int32)
        for i in T.Parallel(BLOCK):
            c = bx * BLOCK + i
            v = T.if_then_else(c < cols, X[by, c], 0)
            # floor semantics for negatives, then a 2-bit tag in the high bits
            bucket = T.floormod(T.floordiv(v, 16), nbuckets)
            sign = T.truncdiv(v, T.max(T.abs(v), 1))
            tag = T.bitwise_and(T.truncmod(v, 4) + 4, 3)
            vals[i] = bucket + T.shift_left(tag, 28) + T.cast(sign < 0, T.int32) * (1 << 30)
        for i in T.Parallel(BLOCK):
            if bx * BLOCK + i < cols:
                Out[by, bx * BLOCK + i] = vals[i]


kernel = tilelang.compile(bucketize, out_idx=-1, pass_configs={tilelang.PassConfigKey.TL_DISABLE_TMA_LOWER: True})

# CHECK: "name":"X","kind":"tensor","shape":["rows","cols"],"dtype":"int32","scope":"global","layout":null
# CHECK: "name":"(bx, by)","kind":"kernel","shape":["ceildiv(cols, 256)","rows"],"dtype":null,"scope":null,"layout":null
# CHECK: "name":"vals","kind":"buffer","shape":[256],"dtype":"int32","scope":"local.fragment","layout":"parallel · 1 reg/thread"
