# RUN: tlc-build --check %s 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=error: --implicit-check-not=warning:
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# Group A (+F): @T.macro helpers inside a lazy factory: buffer-annotated
# parameters (T.Tensor / T.SharedBuffer / T.FragmentBuffer), a T.Ref scalar
# out-parameter, a macro returning a tuple; layer norm over rows.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def layer_norm(M, N, block_M=16, eps=1e-5, dtype=T.float16):
    accum_dtype = T.float32
    inv_n = 1.0 / N

    @T.macro
    def load_rows(X: T.Tensor((M, N), dtype), x_shared: T.SharedBuffer((block_M, N), dtype),
                  x_frag: T.FragmentBuffer((block_M, N), accum_dtype), row0):
        T.copy(X[row0:row0 + block_M, :], x_shared)
        T.copy(x_shared, x_frag)

    @T.macro
    def row_moments(x_frag, mean, var, sq):
        T.reduce_sum(x_frag, mean, dim=1)
        for i, j in T.Parallel(block_M, N):
            sq[i, j] = x_frag[i, j] * x_frag[i, j]
        T.reduce_sum(sq, var, dim=1)
        for i in T.Parallel(block_M):
            mean[i] = mean[i] * inv_n
            var[i] = var[i] * inv_n - mean[i] * mean[i]

    @T.macro
    def tile_origin(bx, rows: T.Ref):
        rows = T.min(block_M, M - bx * block_M)
        return bx * block_M, 0

    @T.prim_func
    def main(
        X: T.Tensor((M, N), dtype),
        W: T.Tensor((N,), dtype),
        Y: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
            x_shared = T.alloc_shared((block_M, N), dtype)
            x_frag = T.alloc_fragment((block_M, N), accum_dtype)
            sq = T.alloc_fragment((block_M, N), accum_dtype)
            mean = T.alloc_fragment((block_M,), accum_dtype)
            var = T.alloc_fragment((block_M,), accum_dtype)
            w_shared = T.alloc_shared((N,), dtype)
            valid_rows = T.alloc_var(T.int32)

            row0, col0 = tile_origin(bx, valid_rows)
            T.copy(W[col0:col0 + N], w_shared)
            load_rows(X, x_shared, x_frag, row0)
            row_moments(x_frag, mean, var, sq)
            for i, j in T.Parallel(block_M, N):
                x_frag[i, j] = (x_frag[i, j] - mean[i]) * T.rsqrt(var[i] + eps) * w_shared[j]
            T.copy(x_frag, Y[row0, 0])

    return main


kernel = layer_norm(8192, 1024, block_M=8)

# CHECK: "name":"X","kind":"tensor","shape":[8192,1024],"dtype":"float16","scope":"global","layout":null
# CHECK: "name":"W","kind":"tensor","shape":[1024],"dtype":"float16","scope":"global"
# CHECK: "name":"bx","kind":"kernel","shape":[1024],{{.*}}"detail":"128 threads"
# CHECK: "name":"x_shared","kind":"buffer","shape":[8,1024],"dtype":"float16","scope":"shared.dyn","layout":"linear"
# CHECK: "name":"x_frag","kind":"buffer","shape":[8,1024],"dtype":"float32","scope":"local.fragment","layout":"parallel · 64 regs/thread"
# CHECK: "name":"mean","kind":"buffer","shape":[8],"dtype":"float32","scope":"local.fragment"
# CHECK: "name":"w_shared","kind":"buffer","shape":[1024],"dtype":"float16","scope":"shared.dyn"
# CHECK: "name":"valid_rows","kind":"buffer","shape":[1],"dtype":"int32","scope":"local.var"

# The CUDA code's shared-memory accesses (a hint, not a problem):
# DIAG: 19:9: remark: 2-way bank conflict on x_shared (2-byte ld.shared)
