# T.atomic_add(dst, shared tile, use_tma=True) (issue 13, corpus44b H15):
# tlc lowered it to per-element atomics without a word. On sm_90 and later
# a whole row-major shared tile of float32 / float16 / bfloat16 whose rows
# are multiples of 16 bytes is added by the copy engine, one bulk
# reduction (cp.reduce.async.bulk.global.shared::cta.bulk_group.add) a
# row; otherwise a remark says why the tile is added element by element.
# Runs: tests/lit/tlc-run/atomic-add-tma-sim.test.
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s 2>&1 | FileCheck %s
# CHECK-NOT: remark
# CHECK: tlc::cuda::fenceProxyAsync();  // the tile, to the copy engine
# CHECK: for (int [[R:row[_0-9]*]] = tid; [[R]] < 64; [[R]] += 128)
# CHECK: tlc::cuda::bulkReduceAdd(&dQ[{{.*}}], &A_shared[{{.*}}], 512);
# CHECK: tlc::cuda::atomicAddTo<float>(
# CHECK: tlc::cuda::tmaStoreCommit();
# CHECK: tlc::cuda::tmaStoreWait<0, false>();
# RUN: tlc-build --target=cuda:sm_100a --emit=cuda --no-source-lines %s 2>&1 | FileCheck %s
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s -D dtype=bfloat16 2>&1 | FileCheck %s --check-prefix=BF16
# BF16: tlc::cuda::bulkReduceAdd(&dQ[{{.*}}], &A_shared[{{.*}}], 256);
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda --no-source-lines %s 2>&1 | FileCheck %s --check-prefix=SM80
# SM80: remark: T.atomic_add(..., use_tma=True) adds the tile element by element with atomics: cp.reduce.async.bulk needs sm_90 or later, and this build is for sm_80
# SM80-NOT: bulkReduceAdd
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s -D cols=6 2>&1 | FileCheck %s --check-prefix=ROW
# ROW: remark: T.atomic_add(..., use_tma=True) adds the tile element by element with atomics: a row of the tile is 24 bytes, and the bulk reduction moves multiples of 16 bytes
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s -D dtype=int32 2>&1 | FileCheck %s --check-prefix=INT
# INT: remark: {{.*}}the bulk reduction adds float32, float16 and bfloat16 tiles into tensors of the same dtype
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s -D strided=1 2>&1 | FileCheck %s --check-prefix=COLUMN
# COLUMN: remark: {{.*}}the tile's rows are not contiguous in the destination (they do not lie along its last dimension)
# Without use_tma the tile is added element by element, as before.
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s -D use_tma=0 2>&1 | FileCheck %s --check-prefix=PLAIN
# PLAIN-NOT: remark
# PLAIN-NOT: bulkReduceAdd
import tilelang
import tilelang.language as T


@tilelang.jit
def atomic_add_tma(cols=128, dtype="float32", strided=0, use_tma=1):

    @T.prim_func
    def main(A: T.Tensor((64, cols), dtype),
             dQ: T.Tensor((256, 128, 2) if strided else (256, 128), dtype)):
        with T.Kernel(2, threads=128) as bx:
            A_shared = T.alloc_shared((64, cols), dtype)
            T.copy(A, A_shared)
            if strided:
                T.atomic_add(dQ[bx * 64:(bx + 1) * 64, 0:cols, 1], A_shared,
                             use_tma=bool(use_tma))
            else:
                T.atomic_add(dQ[bx * 64:(bx + 1) * 64, 0:cols], A_shared,
                             use_tma=bool(use_tma))

    return main
