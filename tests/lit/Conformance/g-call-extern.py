# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# At M = 100, N = 300 (ragged tiles): the CPU target against NumPy (the
# imported-source kernel: Y = 0.5 * silu(X), the scale through the
# T.access_ptr of each tile row; the prelude kernel: Y[i, j] = X[i,
# clamp(j - 1)]), and the sim device (sm_80, sm_90a, gfx942) against it.
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -D M=100 -D N=300 -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --kernel=silu_extern --seed 4 --save %t/o1 > /dev/null
# RUN: tlc-run %t/cpu --kernel=silu_extern_1 --seed 4 --save %t/o2 > /dev/null
# RUN: %python -c "import numpy as np; d='%t/'; x=np.load(d+'o1/inputs/X.npy').astype(np.float64); y=np.load(d+'o1/Y.npy'); print(y.shape, bool(np.allclose(y, 0.5*x/(1+np.exp(-x)), rtol=1e-5, atol=1e-6))); x=np.load(d+'o2/inputs/X.npy'); c=np.clip(np.arange(300)-1, 0, 299); print(bool(np.array_equal(np.load(d+'o2/Y.npy'), x[:, c])))" | FileCheck %s --check-prefix=NUMPY
# NUMPY: (100, 300) True
# NUMPY-NEXT: True
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -D M=100 -D N=300 -o %t/sm80 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm80 --device sim --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -D M=100 -D N=300 -o %t/sm90 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm90 --device sim --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# RUN: %if hip-toolchain && sim-compiler %{ tlc-build --target=hip:gfx942 -D M=100 -D N=300 -o %t/hip %s > /dev/null %}
# RUN: %if hip-toolchain && sim-compiler %{ tlc-run %t/hip --device sim --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# SIM-COUNT-4: verify Y: PASS
# RUN: tlc-build --target=hip:gfx90a -D M=100 -D N=300 -o %t/gfx90a %s | FileCheck %s --check-prefix=BUILT
# BUILT: wrote {{.*}}silu_extern.hsaco
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
# CHECK: "name":"tile","kind":"buffer","shape":[32,128],"dtype":"float32","scope":"shared.dyn","layout":"linear"
# Both nested prim_funcs are built whenever the factory runs (as TileLang
# builds them at their definitions); the second instance has with_prelude's
# fragment too.
# CHECK: "instance":"silu_extern(1024, 1024, use_prelude=True)","name":"X"
# CHECK: "instance":"silu_extern(1024, 1024, use_prelude=True)","name":"acc","kind":"buffer","shape":[32,128],"dtype":"float32","scope":"local.fragment","layout":"parallel{{[^"]*}}"
