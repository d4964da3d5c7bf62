# Blocks of several dimensions (threads=[X, Y, Z]) are launched with one
# dimension of X * Y * Z threads, so T.get_thread_binding(d) is the d-th
# digit of the linear thread index, x fastest (it used to read threadIdx.y,
# which is 0 in such a launch: b-warp-rows left 875 of 1000 rows unwritten;
# sim-conformance runs that program against the CPU target).
# RUN: tlc-build --emit=cuda --target=cuda:sm_80 %s | FileCheck %s
# RUN: tlc-build %s --target=cuda:sm_80 --cuda-compiler=none -o %t/cuda > /dev/null
# RUN: FileCheck %s --check-prefix=LAUNCH < %t/cuda/per_axis.json
# CHECK: __launch_bounds__(256) per_axis_kernel(
# CHECK-DAG: (((int)threadIdx.x / 32) % 4)
# CHECK-DAG: ((int)threadIdx.x / 128)
# CHECK-DAG: ((int)threadIdx.x % 32)
# CHECK-NOT: threadIdx.y
# CHECK-NOT: threadIdx.z
# LAUNCH: "block": [
# LAUNCH-NEXT: 256
# LAUNCH-NEXT: ],
import tilelang
import tilelang.language as T


@tilelang.jit
def per_axis(M=64):

    @T.prim_func
    def main(X: T.Tensor((M, 256), T.int32)):
        with T.Kernel(M, threads=[32, 4, 2]) as bx:
            tx = T.get_thread_binding(0)
            ty = T.get_thread_binding(1)
            tz = T.get_thread_binding(2)
            X[bx, tz * 128 + ty * 32 + tx] = tx + 100 * ty + 10000 * tz

    return main


kernel = per_axis()
