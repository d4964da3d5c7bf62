# T.atomic_add(region, value) adds the scalar to every element of the
# region, each element once for the block, spread over its threads like a
# T.Parallel (TileLang's tile form with a value source, testing/python/cpu's
# atomic test). Blocks add into overlapping rows of a global tensor, so each
# element of C ends at its initial value plus the value times the number of
# blocks that cover it, and a shared region gets the value once. The CPU
# target's outputs are compared with NumPy; the CUDA code runs on the sim
# device against the CPU target. return_prev needs an element.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --seed 7 --save %t/out
# RUN: %python %S/Inputs/atomic_add_region_value_ref.py %t/out | FileCheck %s --check-prefix=REF
# REF: region_add C True S True
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sim %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sim --device sim --verify --reference %t/art --seed 7 | FileCheck %s --check-prefix=SIM %}
# SIM: PASS
# RUN: not tlc-build --check -D bad=1 %s 2>&1 | FileCheck %s --check-prefix=ERR
import tilelang
import tilelang.language as T


@tilelang.jit
def region_add(M=24, N=40, bad=0):

    @T.prim_func
    def main(C: T.Tensor((M, N), "float32"), S: T.Tensor((4, 32), "float32")):
        # Block b adds 2.5 to rows 4b .. 4b + 11 of C (overlapping).
        with T.Kernel(4, threads=64) as b:
            if bad == 0:
                T.atomic_add(C[b * 4:b * 4 + 12, 8:40], 2.5)
            else:
                # ERR: :[[@LINE+1]]:30: error: T.atomic_add with return_prev needs an element destination such as C[i, j]
                T.atomic_add(C[0:4, :], 1.0, return_prev=True)
            t = T.alloc_shared((4, 32), "float32")
            T.fill(t, 1.0)
            T.atomic_add(t[1:3, 4:20], 3)
            T.copy(t, S)

    return main


if __name__ == "__main__":
    region_add()
