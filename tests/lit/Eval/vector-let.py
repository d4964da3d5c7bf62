# Raw-TIR vector lets: `b: T.float32x4 = A[r, 0:4]` binds the four values of
# the region (held per thread in a local buffer of four lanes), and a store
# of `b` to a region of four elements writes them back lane by lane. Run on
# the CPU target and compared with Python, and on sim against the CPU.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile --mlir-print-debuginfo %s | FileCheck %s
# RUN: rm -rf %t && mkdir -p %t && tlc-build --target=cpu -o %t/art %s > /dev/null
# RUN: %python %S/Inputs/lang_eval_run.py vector-let tlc-run %t/art %t | FileCheck %s --check-prefix=RUNOUT

import tilelang
import tilelang.language as T


@T.prim_func
def swap_halves(A: T.Tensor((16, 16), T.float32), B: T.Tensor((16, 16), T.float32)):
    with T.Kernel(16, threads=1) as r:
        b: T.float32x4 = A[r, 0:4]
        B[r, 4:8] = b
        c: T.float32x4 = A[r, 8:12]
        for j in T.serial(4):
            c[j] = c[j] + 1
        B[r, 0:4] = c
        d: T.float32x4 = A[r, 12:16]
        B[r, 8:12] = d
        e: T.float32x4 = A[r, 4:8]
        B[r, 12:16] = e



# CHECK: %[[B:.*]] = tile.alloc : !tile.buffer<[4], f32, local> loc(#[[BLOC:loc[0-9]+]])
# CHECK-COUNT-4: tile.store {{.*}}, %[[B]][
# CHECK-COUNT-4: tile.load %[[B]][
# CHECK: tile.alloc : !tile.buffer<[4], f32, local> loc(#[[CLOC:loc[0-9]+]])
# CHECK: #[[BLOC]] = loc("b"
# CHECK: #[[CLOC]] = loc("c"
# RUNOUT: vector-let ok
