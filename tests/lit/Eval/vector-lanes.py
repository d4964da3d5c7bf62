# Calling a vector dtype with one value per lane builds the vector
# (T.float16x2(a, b)); T.extract_lane reads a lane back.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile %s | FileCheck %s
import tilelang.language as T


@T.prim_func
def swap_pair(A: T.Tensor((2,), T.float16), B: T.Tensor((2,), T.float16)):
    with T.Kernel(1, threads=1):
        packed = T.alloc_var(T.float16x2)
        packed = T.float16x2(A[1], A[0])
        B[0] = T.extract_lane(packed, 0)
        B[1] = T.extract_lane(packed, 1)


# CHECK-LABEL: tile.func @swap_pair
# CHECK: %[[V:.*]] = tile.intrinsic "T.Shuffle"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {params = ["vectors", "vectors", "indices", "indices"]} : (f16, f16, i32, i32) -> vector<2xf16>
# CHECK: tile.store %[[V]], %[[VAR:.*]][]
# CHECK: %[[L:.*]] = tile.load %[[VAR]][]
# CHECK: tile.intrinsic "T.extract_lane"(%[[L]], %{{.*}})

