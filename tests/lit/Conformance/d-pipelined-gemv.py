# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# Group D (+E): loop kinds. T.Pipelined(num_stages=2) streams x chunks through
# shared memory; T.serial with a start/stop/step, T.unroll and T.vectorized
# inner loops; range(...) over a meta int; a GEMV y = W x + b.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def gemv(N, K, block_N=128, block_K=256, vec=8, dtype=T.float16, accum_dtype=T.float32):
    threads = block_N
    lanes_per_row = block_K // vec

    @T.prim_func
    def main(
        W: T.Tensor((N, K), dtype),
        x: T.Tensor((K,), dtype),
        b: T.Tensor((N,), dtype),
        y: T.Tensor((N,), dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), threads=threads) as bn:
            x_shared = T.alloc_shared((block_K,), dtype)
            w_local = T.alloc_local((vec,), dtype)
            acc = T.alloc_local((1,), accum_dtype)
            tx = T.get_thread_binding()
            row = bn * block_N + tx

            acc[0] = 0
            for ko in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                T.copy(x[ko * block_K], x_shared)
                for c in T.serial(0, lanes_per_row, 2):
                    for h in range(2):
                        for v in T.vectorized(vec):
                            w_local[v] = W[row, ko * block_K + (c + h) * vec + v]
                        for v in T.unroll(vec):
                            acc[0] += T.cast(w_local[v], accum_dtype) * T.cast(x_shared[(c + h) * vec + v], accum_dtype)
            y[row] = T.cast(acc[0] + T.cast(b[row], accum_dtype), dtype)

    return main


kernel = gemv(8192, 4096)

# CHECK: "name":"W","kind":"tensor","shape":[8192,4096],"dtype":"float16","scope":"global","layout":null
# CHECK: "name":"bn","kind":"kernel","shape":[64],{{.*}}"detail":"128 threads"
# CHECK: "name":"x_shared","kind":"buffer","shape":[256],"dtype":"float16","scope":"shared.dyn","layout":"linear"
# CHECK: "name":"w_local","kind":"buffer","shape":[8],"dtype":"float16","scope":"local","layout":null
# CHECK: "name":"acc","kind":"buffer","shape":[1],"dtype":"float32","scope":"local"
# CHECK: "name":"ko","kind":"pipeline","shape":[16],{{.*}}"detail":"2 stages"
