# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# G: T.import_source + T.call_extern (value/void, T.access_ptr args), T.Kernel(prelude=...).
# Shape: lazy factory with two prim_funcs, one returned by a Python conditional.
import tilelang
import tilelang.language as T

SILU_SRC = """
__device__ __forceinline__ float tl_user_silu(float x) {
  return x / (1.0f + __expf(-x));
}
__device__ __forceinline__ void tl_user_scale_row(float* row, int n, float s) {
  for (int i = 0; i < n; ++i) row[i] *= s;
}
"""

CLAMP_SRC = "__device__ int tl_user_clamp_idx(int i, int n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); }"


@tilelang.jit(out_idx=[-1])
def silu_extern(M, N, block_M=32, block_N=128, use_prelude=False):
    @T.prim_func
    def with_import(X: T.Tensor((M, N), T.float32), Y: T.Tensor((M, N), T.float32)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            T.import_source(SILU_SRC)
            tile = T.alloc_shared((block_M, block_N), T.float32)
            T.copy(X[by * block_M, bx * block_N], tile)
            for i, j in T.Parallel(block_M, block_N):
                tile[i, j] = T.call_extern("float32", "tl_user_silu", tile[i, j])
            tx = T.get_thread_binding()
            if tx < block_M:
                T.call_extern("void", "tl_user_scale_row", T.access_ptr(tile[tx, 0], "rw", block_N), block_N, 0.5)
            T.copy(tile, Y[by * block_M, bx * block_N])

    @T.prim_func
    def with_prelude(X: T.Tensor((M, N), T.float32), Y: T.Tensor((M, N), T.float32)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128, prelude=CLAMP_SRC) as (bx, by):
            acc = T.alloc_fragment((block_M, block_N), T.float32)
            for i, j in T.Parallel(block_M, block_N):
                src_col = T.call_extern("int32", "tl_user_clamp_idx", bx * block_N + j - 1, N)
                acc[i, j] = X[by * block_M + i, src_col]
            T.copy(acc, Y[by * block_M, bx * block_N])

    return with_prelude if use_prelude else with_import


kernel = silu_extern(1024, 1024)
shifted = silu_extern(1024, 1024, use_prelude=True)

# First instance: silu_extern(1024, 1024) returns with_import.
# CHECK: "instance":"silu_extern(1024, 1024)","name":"X","kind":"tensor","shape":[1024,1024],"dtype":"float32","scope":"global","layout":null
# CHECK: "name":"tile","kind":"buffer","shape":[32,128],"dtype":"float32","scope":"shared.dyn","layout":"swizzle 128B"
# Both nested prim_funcs are built whenever the factory runs (as TileLang
# builds them at their definitions); the second instance has with_prelude's
# fragment too.
# CHECK: "instance":"silu_extern(1024, 1024, use_prelude=True)","name":"X"
# CHECK: "instance":"silu_extern(1024, 1024, use_prelude=True)","name":"acc","kind":"buffer","shape":[32,128],"dtype":"float32","scope":"local.fragment","layout":"parallel{{[^"]*}}"
