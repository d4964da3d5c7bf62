# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# J: T.device_assert (msg=, no_stack_info=), T.isfinite, Python assert on a PrimExpr.
# Shape: eager @tilelang.jit with T.const + T.dynamic, module-level @T.macro.
import tilelang
import tilelang.language as T


@T.macro
def check_finite(tile, rows, cols):
    for i, j in T.Parallel(rows, cols):
        T.device_assert(T.isfinite(tile[i, j]), msg="non-finite embedding value")


@tilelang.jit
def gather_rows(Table, Index, block_rows=16, check=True):
    V, D = T.const("V, D")
    num = T.dynamic("num")
    Table: T.Tensor((V, D), T.float32)
    Index: T.Tensor((num,), T.int32)
    Out = T.empty((num, D), T.float32)
    assert D % 4 == 0, "rows must be float4-aligned"
    with T.Kernel(T.ceildiv(num, block_rows), threads=128) as bx:
        rows = T.alloc_fragment((block_rows, D), T.float32)
        ids = T.alloc_shared((block_rows,), T.int32)
        tx = T.get_thread_binding()
        if tx < block_rows:
            ids[tx] = T.if_then_else(bx * block_rows + tx < num, Index[T.min(bx * block_rows + tx, num - 1)], 0)
            if check:
                T.device_assert(ids[tx] >= 0, msg="negative row id")
                T.device_assert(ids[tx] < V, no_stack_info=True)
        for i, j in T.Parallel(block_rows, D):
            rows[i, j] = Table[ids[i], j]
        if check:
            check_finite(rows, block_rows, D)
        assert bx * block_rows < num + block_rows, "grid larger than the index list"
        T.copy(rows, Out[bx * block_rows, 0])
    return Out


kernel = gather_rows.compile(V=32000, D=256)

# CHECK: "name":"Index","kind":"tensor","shape":["num"],"dtype":"int32","scope":"global","layout":null
# CHECK: "name":"Out","kind":"tensor","shape":["num",256],"dtype":"float32","scope":"global","layout":null
# CHECK: "name":"rows","kind":"buffer","shape":[16,256],"dtype":"float32","scope":"local.fragment","layout":"parallel · 32 regs/thread"
# CHECK: "name":"ids","kind":"buffer","shape":[16],"dtype":"int32","scope":"shared.dyn","layout":"linear"
