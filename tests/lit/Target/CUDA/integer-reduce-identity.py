# RUN: tlc-build --check %s
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda %s | FileCheck %s
# RUN: %if nvcc %{ rm -rf %t && env TLC_CACHE_DIR=%t.cache tlc-build --target=cuda:sm_90a --no-cache -o %t %s | FileCheck %s --check-prefix=BUILT %}
# Integer max/min reductions start from literals: device code may not call
# std::numeric_limits' host constexpr functions, so nvcc refused the argmax
# of the public top-k example ("calling a constexpr __host__ function").
# CHECK-NOT: numeric_limits
# CHECK-DAG: = (int32_t)(-2147483647ll - 1);
# CHECK-DAG: = (int64_t)9223372036854775807ll;
# CHECK-NOT: numeric_limits
# BUILT: wrote {{.*}}argmax.cubin
import tilelang
import tilelang.language as T


@tilelang.jit
def argmax(M=64, N=128):
    X: T.Tensor((M, N), T.float32)
    Idx: T.Tensor((M,), T.int32)
    Low: T.Tensor((M,), T.int64)
    with T.Kernel(1, threads=128) as _:
        x = T.alloc_fragment((M, N), T.float32)
        best = T.alloc_fragment((M,), T.float32)
        where = T.alloc_fragment((M, N), T.int32)
        wide = T.alloc_fragment((M, N), T.int64)
        idx = T.alloc_fragment((M,), T.int32)
        low = T.alloc_fragment((M,), T.int64)
        T.copy(X, x)
        T.reduce_max(x, best, dim=1)
        for i, j in T.Parallel(M, N):
            where[i, j] = T.if_then_else(x[i, j] == best[i], j, -1)
            wide[i, j] = j
        T.reduce_max(where, idx, dim=1)
        T.reduce_min(wide, low, dim=1)
        T.copy(idx, Idx)
        T.copy(low, Low)
