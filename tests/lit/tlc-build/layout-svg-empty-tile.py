# RUN: rm -rf %t && not tlc-build --target=cuda:sm_80 --emit=layout-svg %s -o %t 2>%t.err | FileCheck %s
# RUN: FileCheck %s --check-prefix=ERR < %t.err
# A shared tile with an extent of 0 (`block_K & block_N` typed for
# `block_K, block_N`) is an error at its allocation and has no picture; its
# linear layout used to be built from an error and corrupt the heap (found
# by tlc-fuzz-lsp: the editor's layout views collect the same pictures).
import tilelang
import tilelang.language as T


@tilelang.jit
def k(block_N=128, block_K=32):
    B: T.Tensor((128, 32), T.float16)
    with T.Kernel(1, threads=128) as bx:
        e = T.alloc_shared((block_K & block_N), T.float16)
        s = T.alloc_shared((block_N, block_K), T.float16)
        T.copy(B[0, 0], s)

# CHECK-NOT: k.0.e.svg
# CHECK: k.0.s.svg
# CHECK-NOT: k.0.e.svg
# ERR: error: buffer 'e' has an extent of 0; every extent of a tile must be positive
