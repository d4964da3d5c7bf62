# T.Parallel loops run without per-element checks when the index ranges of
# their accesses, computed before the loop from the loop extents, lie inside
# the buffers; otherwise (the ragged last block here: rows 16..23 of 20) the
# checked loop runs, reading zero and dropping writes outside global memory.
# An index that depends on a loaded value (the gather through `rows`) has no
# known range and stays checked in both versions. Checked against NumPy.
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --save %t/out
# RUN: %python -c "import numpy as np; d='%t/out/'; A=np.load(d+'inputs/A.npy').astype(np.float64); B=np.load(d+'B.npy').astype(np.float64); r=np.arange(20); g=(r//8)*8+((r%%8)*3)%%8; G=np.where((g<20)[:,None], A[np.minimum(g,19)][:, np.arange(12)//2], 0); print(np.allclose(B, A[:, 1::2]*2 + G, rtol=1e-6, atol=1e-6))" | FileCheck %s
# CHECK: True
# RUN: tlc-build --target=cpu --emit=cpp %s | FileCheck %s --check-prefix=CPP
# CPP: // T.Parallel: one host loop per dimension; unchecked when the 3 accesses with known index ranges are in range
# CPP-NEXT: if (tlc::cpu::spans(A, {{{.*}}}, {{{.*}}}) &&
# CPP-NEXT:   tlc::cpu::spans(B, {{{.*}}}, {{{.*}}}) &&
# CPP-NEXT:   tlc::cpu::spans(rows, {INT64_C(0)}, {(int64_t(8) - 1)})) {
# CPP:        A.at({
# CPP:        tlc::cpu::load(A, {
# CPP:        B.at({
# CPP:      } else {
# CPP:        tlc::cpu::load(A, {
# CPP:        tlc::cpu::loadChecked(st, {{.*}}, rows, {
# CPP:        tlc::cpu::store(B, {

import tilelang
import tilelang.language as T


@tilelang.jit
def fast_path(M=20, N=12, block=8):
    A: T.Tensor((M, 2 * N), T.float32)
    B: T.Tensor((M, N), T.float32)
    with T.Kernel(T.ceildiv(M, block), threads=32) as by:
        rows = T.alloc_fragment((block,), T.int32)
        for i in T.Parallel(block):
            rows[i] = (i * 3) % block
        for i, j in T.Parallel(block, N):
            B[by * block + i, j] = A[by * block + i, j * 2 + 1] * 2.0 + A[by * block + rows[i], j // 2]
