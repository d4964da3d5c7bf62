# T.reduce_sum/max/min/abssum/absmax of a fragment into shared memory (the
# reduced dimension dropped or kept with extent 1, a rank-0 result,
# clear=False): the CUDA and HIP targets refused them ("reduces a whole
# fragment into a whole fragment only"). The threads fold their registers
# and combine across lanes and warps as for a fragment result laid out as
# layout inference would lay it out, then one replica of each result stores
# it between block barriers. The CPU target and the sim device (sm_80,
# sm_90a, gfx942) are checked against NumPy; nvcc builds it.
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda --no-source-lines %s | FileCheck %s
# CHECK: // T.reduce_sum
# CHECK: shuffleXor
# CHECK: __syncthreads();
# CHECK-NEXT: if ((tid & {{[0-9]+}}) == 0) {
# CHECK: rows[o{{[_0-9]*}}] = part
# CHECK: __syncthreads();
# RUN: tlc-build --target=hip:gfx942 --emit=hip --no-source-lines %s | FileCheck %s --check-prefix=HIP
# HIP: // T.reduce_sum
# HIP-NOT: error
# RUN: %if nvcc %{ rm -rf %t.nv && env TLC_CACHE_DIR=%t.cache tlc-build --target=cuda:sm_90a --no-cache -o %t.nv %s | FileCheck %s --check-prefix=BUILT %}
# BUILT: wrote {{.*}}fragment_shared_reduce.cubin
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 4 --save %t/out > /dev/null
# RUN: %python %S/Inputs/fragment_shared_reduce_check.py %t/out | FileCheck %s --check-prefix=REF
# REF: sum OK max OK absmax OK min OK abssum OK int OK
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/sm80 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm80 --device sim --seed 4 --save %t/sm80out > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/fragment_shared_reduce_check.py %t/sm80out | FileCheck %s --check-prefix=REF %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sm90 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm90 --device sim --seed 4 --save %t/sm90out > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/fragment_shared_reduce_check.py %t/sm90out | FileCheck %s --check-prefix=REF %}
# RUN: %if hip-toolchain %{ tlc-build --target=hip:gfx942 -o %t/hip %s > /dev/null %}
# RUN: %if hip-toolchain %{ tlc-run %t/hip --device sim --seed 4 --save %t/hipout > /dev/null %}
# RUN: %if hip-toolchain %{ %python %S/Inputs/fragment_shared_reduce_check.py %t/hipout | FileCheck %s --check-prefix=REF %}
import tilelang
import tilelang.language as T


@tilelang.jit
def fragment_shared_reduce(M=64, N=128):

    @T.prim_func
    def main(X: T.Tensor((M, N), "float32"), I: T.Tensor((M, N), "int32"),
             Rows: T.Tensor((M,), "float32"), Cols: T.Tensor((N,), "float32"),
             Amax: T.Tensor((M, 1), "float32"),
             Mins: T.Tensor((M,), "float32"), Total: T.Tensor((), "float32"),
             IRows: T.Tensor((M,), "int32")):
        with T.Kernel(1, threads=128) as _:
            x = T.alloc_fragment((M, N), "float32")
            xi = T.alloc_fragment((M, N), "int32")
            flat = T.alloc_fragment((N,), "float32")
            rows = T.alloc_shared((M,), "float32")
            cols = T.alloc_shared((N,), "float32")
            amax = T.alloc_shared((M, 1), "float32")
            mins = T.alloc_shared((M,), "float32")
            total = T.alloc_shared((), "float32")
            irows = T.alloc_shared((M,), "int32")
            T.copy(X, x)
            T.copy(I, xi)
            T.copy(X[0, :], flat)
            T.reduce_sum(x, rows, dim=1)
            T.reduce_max(x, cols, dim=0)
            T.reduce_absmax(x, amax, dim=1)
            T.fill(mins, 0.25)
            T.reduce_min(x, mins, dim=1, clear=False)
            T.reduce_abssum(flat, total, dim=0)
            T.reduce_sum(xi, irows, dim=1)
            # A reader of the results in another thread's layout.
            for i in T.Parallel(M):
                rows[i] = rows[i] * 2
            T.copy(rows, Rows)
            T.copy(cols, Cols)
            T.copy(amax, Amax)
            T.copy(mins, Mins)
            T.copy(total, Total)
            T.copy(irows, IRows)

    return main


fragment_shared_reduce()
