# T.tvm_access_ptr(ptype, data, offset, extent, rw_mask), TVM's builtin
# that `from tvm.script.parser.tir import *` makes part of
# tilelang.language: the pointer to `extent` elements of buf.data from
# element `offset`, read (mask 1), written (2) or both (3). It is the
# T.access_ptr of that region (the same tile.intrinsic); the imported row
# scaler runs on the CPU against NumPy.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile %s | FileCheck %s --check-prefix=IR
# RUN: tlc-build --verify-diagnostics %S/Inputs/tvm-access-ptr-errors.py
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 6 --save %t/out > /dev/null
# RUN: %python -c "import numpy as np; d='%t/out/'; x=np.load(d+'inputs/X.npy').astype(np.float64); y=np.load(d+'Y.npy'); w=x.copy(); w[:16] *= 0.5; print(bool(np.allclose(y, w)))" | FileCheck %s
# CHECK: True
# IR-LABEL: tile.func @scale_rows
# IR: %[[TILE:.*]] = tile.alloc{{.*}} : !tile.buffer<[2048], f32, shared.dyn>
# IR: tile.intrinsic "T.access_ptr"(%[[TILE]], %{{.*}}, %{{.*}}) {options = {access_type = "rw"}, params = ["base", "offset", "extent"]} : (!tile.buffer<[2048], f32, shared.dyn>, index, i32) -> i64
# IR: tile.intrinsic "T.access_ptr"(%[[TILE]], %{{.*}}, %{{.*}}) {options = {access_type = "rw"}, params = ["base", "offset", "extent"]} : (!tile.buffer<[2048], f32, shared.dyn>, index, i32) -> i64
import tilelang.language as T

SCALE_SRC = """
__device__ __forceinline__ void tl_user_scale_row(float* row, int n, float s) {
  for (int i = 0; i < n; ++i) row[i] *= s;
}
"""


@T.prim_func
def scale_rows(X: T.Tensor((32, 64), T.float32), Y: T.Tensor((32, 64), T.float32)):
    with T.Kernel(1, threads=32):
        T.import_source(SCALE_SRC)
        tile = T.alloc_shared((2048,), T.float32)
        for i, j in T.Parallel(32, 64):
            tile[i * 64 + j] = X[i, j]
        tx = T.get_thread_binding()
        if tx < 16:
            T.call_extern("void", "tl_user_scale_row",
                          T.tvm_access_ptr(T.type_annotation(T.float32), tile.data, tx * 64, 64, 3), 64, 0.5)
        if tx < 0:
            # the same pointer through T.access_ptr (never run)
            T.call_extern("void", "tl_user_scale_row", T.access_ptr(tile, "rw", offset=tx * 64, extent=64), 64, 1.0)
        for i, j in T.Parallel(32, 64):
            Y[i, j] = tile[i * 64 + j]
