# T.atomic_max / T.atomic_min with a tile as the value (TileLang's tile
# form, testing/python/cpu's atomic test): dst[i] = max(dst[i], src[i])
# element by element, atomically. Four blocks fold their own rows of A into
# one global C (spread over each block's threads like a T.Parallel); a
# thread's local tile takes the minimum with a shared tile in every thread.
# No target built the tile form before (the value had to be a scalar). The
# CPU target's outputs are compared with NumPy; the CUDA code runs on the
# sim device against the CPU target. return_prev needs an element.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --seed 12 --save %t/out
# RUN: %python %S/Inputs/atomic_minmax_tile_ref.py %t/out | FileCheck %s
# CHECK: fold_max True
# CHECK: local_min True
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sim %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sim --device sim --verify --reference %t/art --seed 12 --rtol 0 --atol 0 | FileCheck %s --check-prefix=SIM %}
# SIM-COUNT-2: PASS
# RUN: not tlc-build --check -D bad=1 --kernel=fold_max %s 2>&1 | FileCheck %s --check-prefix=ERR
# ERR: error: T.atomic_max with return_prev needs an element destination such as C[i, j]
import tilelang
import tilelang.language as T


@tilelang.jit
def fold_max(M=16, N=64, bad=0):

    @T.prim_func
    def main(A: T.Tensor((4 * M, N), "float32"), C: T.Tensor((M, N), "float32")):
        with T.Kernel(4, threads=128) as b:
            if bad == 0:
                T.atomic_max(C, A[b * M:(b + 1) * M, :])
            else:
                T.atomic_max(C, A[0:M, :], return_prev=True)

    return main


@tilelang.jit(out_idx=[2])
def local_min(M=4, N=8):

    @T.prim_func
    def main(Init: T.Tensor((M, N), "int32"), A: T.Tensor((M, N), "int32"), B: T.Tensor((M, N), "int32")):
        with T.Kernel(1, threads=32):
            tx = T.get_thread_binding()
            s = T.alloc_shared((M, N), "int32")
            T.copy(A, s)
            dst = T.alloc_local((M, N), "int32")
            for i, j in T.grid(M, N):
                dst[i, j] = Init[i, j]
            T.atomic_min(dst, s)
            if tx == 0:
                for i, j in T.grid(M, N):
                    B[i, j] = dst[i, j]

    return main


if __name__ == "__main__":
    fold_max()
    local_min()
