# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# Group A: T.dynamic symbols kept symbolic in a lazy factory, a
# T.StridedTensor parameter with a dynamic row stride, T.Tensor with a
# symbolic extent; guarded row-wise SiLU(x) * bias with a tail check.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def silu_bias(hidden, block_tokens=4, dtype=T.bfloat16):
    num_tokens = T.dynamic("num_tokens")
    row_stride = T.dynamic("row_stride")
    threads = 512
    vec = hidden // threads

    @T.prim_func
    def main(
        X: T.StridedTensor[(num_tokens, hidden), (row_stride, 1), dtype],
        Bias: T.Tensor((hidden,), dtype),
        Y: T.Tensor((num_tokens, hidden), dtype),
    ):
        with T.Kernel(T.ceildiv(num_tokens, block_tokens), threads=threads) as bx:
            bias_local = T.alloc_local((vec,), T.float32)
            tx = T.get_thread_binding()
            for v in T.unroll(vec):
                bias_local[v] = T.cast(Bias[tx * vec + v], T.float32)
            for t in T.serial(block_tokens):
                row = bx * block_tokens + t
                if row < num_tokens:
                    for v in T.unroll(vec):
                        x = T.cast(X[row, tx * vec + v], T.float32)
                        Y[row, tx * vec + v] = T.cast(x * T.sigmoid(x) * bias_local[v], dtype)

    return main


kernel = silu_bias(4096)

# CHECK: "name":"X","kind":"tensor","shape":["num_tokens",4096],"dtype":"bfloat16","scope":"global","layout":null
# CHECK: "name":"Bias","kind":"tensor","shape":[4096],"dtype":"bfloat16","scope":"global"
# CHECK: "name":"bx","kind":"kernel",{{.*}}"detail":"512 threads"
# CHECK: "name":"bias_local","kind":"buffer","shape":[8],"dtype":"float32","scope":"local","layout":null
