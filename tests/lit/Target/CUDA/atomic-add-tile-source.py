# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a %s | FileCheck %s
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cu %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/cu --device sim --verify --reference %t/cpu | FileCheck %s --check-prefix=SIM %}
# T.atomic_add(dst, tile) with a shared or global source tile (not a
# fragment): the block's threads share the tile's elements, each adds its
# elements into dst at the same coordinates; a shared tile is read after a
# block barrier (T.copy's writers are other threads) and kept until all have
# read it. The sim runs the CUDA build against the CPU target's
# (python-frontend_hints_python checks the CPU target against NumPy).
# CHECK-LABEL: tile_add_kernel(
# CHECK: __syncthreads();  // the tile's writers are other threads
# CHECK: for (int [[E:e[0-9_]*]] = tid; [[E]] < 768; [[E]] += 64)
# CHECK: atomicAddTo<float>(&
# CHECK: __syncthreads();  // every thread has read the tile
# CHECK-LABEL: global_add_kernel(
# CHECK-NOT: __syncthreads
# CHECK: for (int [[F:e[0-9_]*]] = tid; [[F]] < 512; [[F]] += 64)
# CHECK: atomicAddTo<float>(&
# SIM-DAG: verify B: PASS
# SIM-DAG: verify D: PASS
import tilelang
import tilelang.language as T


@tilelang.jit
def tile_add(M=32, N=48, bm=16, blocks=3):

    @T.prim_func
    def main(A: T.Tensor((blocks, M, N), "float32"), B: T.Tensor((M, N), "float32")):
        with T.Kernel(M // bm, blocks, threads=64) as (bx, by):
            S = T.alloc_shared((bm, N), "float32")
            T.copy(A[by, bx * bm:(bx + 1) * bm, :], S)
            T.atomic_add(B[bx * bm:(bx + 1) * bm, :], S)

    return main


@tilelang.jit
def global_add(M=64, N=32, bm=16):

    @T.prim_func
    def main(C: T.Tensor((M, N), "float32"), D: T.Tensor((bm, N), "float32")):
        with T.Kernel(M // bm, threads=64) as bx:
            T.atomic_add(D, C[bx * bm:(bx + 1) * bm, :])

    return main
