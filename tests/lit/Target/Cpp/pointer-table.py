# int64 pointer tables (`T.Tensor([G], T.ptr)` whose elements T.make_tensor
# views): the manifest marks each table with what its elements point at
# (`pointee`: dtype, shape, role; version 4), and tlc-run allocates one
# tensor per element, fills the table with their addresses, and saves,
# reads and verifies the tensors stacked as [G, ...]. The CPU target
# against NumPy at a ragged size; sim coverage: run_sim.py --breadth
# (pointer-table) and the conformance program e-ptr-table-grouped.
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s -DN=150
# RUN: FileCheck %s --check-prefix=MANIFEST < %t/art/grouped_axpy.json
# RUN: tlc-run %t/art --save %t/out | FileCheck %s --check-prefix=RUNOUT
# RUN: %python -c "import numpy as np; d='%t/out/'; x=np.load(d+'inputs/X_ptrs.npy').astype(np.float64); y0=np.load(d+'inputs/Y_ptrs.npy').astype(np.float64); a=np.load(d+'inputs/alpha.npy').astype(np.float64); y=np.load(d+'Y_ptrs.npy'); print(y.shape, bool(np.abs(y - (y0 + a[:, None] * x)).max() < 1e-5))" | FileCheck %s
# The same inputs read back with --inputs give the same outputs.
# RUN: tlc-run %t/art --inputs %t/out/inputs --save %t/again --verify | FileCheck %s --check-prefix=VERIFY
# RUN: cmp %t/out/Y_ptrs.npy %t/again/Y_ptrs.npy
# CHECK: (3, 150) True
# MANIFEST: "name": "X_ptrs",
# MANIFEST-NEXT: "pointee": {
# MANIFEST-NEXT: "dtype": "float32",
# MANIFEST-NEXT: "role": "in",
# MANIFEST-NEXT: "shape": [
# MANIFEST-NEXT: 150
# MANIFEST: "name": "Y_ptrs",
# MANIFEST-NEXT: "pointee": {
# MANIFEST-NEXT: "dtype": "float32",
# MANIFEST-NEXT: "role": "inout",
# MANIFEST: "version": 4
# RUNOUT: ran: X_ptrs:in int64[3] -> in float32[150] each, Y_ptrs:in int64[3] -> inout float32[150] each, alpha:in float32[3]
# VERIFY: verify Y_ptrs: PASS

import tilelang
import tilelang.language as T

G = 3


@tilelang.jit
def grouped_axpy(N, block=64):

    @T.prim_func
    def main(X_ptrs: T.Tensor([G], T.ptr), Y_ptrs: T.Tensor([G], T.ptr),
             alpha: T.Tensor([G], T.float32)):
        with T.Kernel(G, T.ceildiv(N, block), threads=64) as (g, bx):
            X = T.make_tensor(X_ptrs[g], (N,), T.float32)
            Y = T.make_tensor(Y_ptrs[g], (N,), T.float32)
            for i in T.Parallel(block):
                if bx * block + i < N:
                    Y[bx * block + i] = Y[bx * block + i] + alpha[g] * X[bx * block + i]

    return main


grouped_axpy(150)
