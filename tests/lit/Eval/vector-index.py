# Vector indices other than a plain T.Ramp (TVM's vector loads and stores,
# as TileLang's test_tilelang_transform_legalize_negative_index.py writes
# them): A[T.Broadcast(i, n)] reads element i into every lane, a ramp plus
# a broadcast offset is each lane's own index, B[T.Broadcast(i, n)] = v
# stores every lane into element i (the last lane wins), and a vector whose
# lanes are all constants below zero counts from the end of the dimension
# (TileLang's LegalizeNegativeIndex: A[T.Ramp(-4, 1, 4)] is A[60:64] of a
# 64-element A), as A[-1] does. Before, T.Broadcast indices were an
# "invalid Tile IR" error. The CPU target's output is checked against
# NumPy.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile %s | FileCheck %s --check-prefix=TILE
# TILE-NOT: vector<4xi32>
# TILE: tile.kernel
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a --no-source-lines %s | FileCheck %s --check-prefix=CUDA
# CUDA-NOT: Broadcast
# CUDA: void __launch_bounds__
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --seed 3 --fill 'Idx=randint(0,64)' --save %t/out
# RUN: %python %S/Inputs/vector_index_ref.py %t/out | FileCheck %s --check-prefix=REF
# REF: vector_index (16,) True
import tilelang
import tilelang.language as T


@tilelang.jit
def vector_index(n=64):

    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), Idx: T.Tensor((4,), "int32"),
             B: T.Tensor((16,), "float32")):
        with T.Kernel(1, threads=1):
            v = A[T.Broadcast(5, 4)]
            B[T.Ramp(0, 1, 4)] = v
            B[T.Ramp(4, 1, 4)] = A[T.Ramp(3, 2, 4) + T.Broadcast(1, 4)]
            B[T.Broadcast(8, 4)] = T.Ramp(A[0], 1.0, 4)
            B[9] = A[-1]
            B[T.Ramp(10, 1, 4)] = A[T.Ramp(-4, 1, 4)]
            B[14] = A[Idx[0]]
            B[15] = T.extract_lane(A[T.Broadcast(Idx[1], 2) + T.Ramp(0, 1, 2)], 1)

    return main


vector_index()
