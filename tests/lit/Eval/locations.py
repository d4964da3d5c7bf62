# RUN: tlc-build --emit=tile --mlir-print-debuginfo %s | FileCheck %s
# Every op carries the source range it was built from; buffers and loop
# variables carry their Python names.
import tilelang
import tilelang.language as T


@tilelang.jit
def loc(N=256):
    A: T.Tensor((N,), T.float32)
    with T.Kernel(2, threads=128) as bx:
        S = T.alloc_shared((128,), T.float32)
        T.copy(A[bx * 128], S)
        for i in T.Parallel(128):
            S[i] = S[i] * 2.0

# CHECK: tile.func @loc
# CHECK: tile.alloc {{.*}} loc([[S:#loc[0-9]+]])
# CHECK: tile.copy {{.*}} loc([[COPY:#loc[0-9]+]])
# CHECK: arith.mulf {{.*}} loc([[MUL:#loc[0-9]+]])
# CHECK: tile.store {{.*}} loc([[STORE:#loc[0-9]+]])
# CHECK-DAG: [[S]] = loc("S"([[ALLOC:#loc[0-9]+]]))
# CHECK-DAG: [[ALLOC]] = loc("{{.*}}locations.py":12:13 to :46)
# CHECK-DAG: [[COPY]] = loc("{{.*}}locations.py":13:9 to :31)
# CHECK-DAG: [[MUL]] = loc("{{.*}}locations.py":15:20 to :30)
# CHECK-DAG: [[STORE]] = loc("{{.*}}locations.py":15:13 to :17)
