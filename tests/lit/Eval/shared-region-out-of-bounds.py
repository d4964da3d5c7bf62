# RUN: tlc-build --check %s
# RUN: not tlc-build --check -Dextra=1 %s 2>&1 | FileCheck %s
# RUN: not tlc-build --target=cpu -o %t -Dextra=1 %s 2>&1 | FileCheck %s
# A slice of a shared buffer that reaches past it: `S[0:block + extra]` as
# the destination of T.copy (the copy writes every element of the region),
# a pipelined loop whose shared window slides past the end, and a slice
# read past a 2-D buffer's last column. TileLang guards the global side of a copy only (its safe
# memory pass warns, at most, for shared and local buffers), so the
# elements past the buffer land in other shared memory or past the block's
# end. Each such instance is an error at the slice, with the allocation as
# a note; the in-bounds instance (extra=0) and a slice under a condition
# are not reported.
import tilelang
import tilelang.language as T


@tilelang.jit
def slices(N=256, block=32, extra=0):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32"),
             X: T.Tensor((64, 64), "float16"), Y: T.Tensor((64, 64), "float32")):
        with T.Kernel(T.ceildiv(N, block), threads=block) as bx:
            S = T.alloc_shared((block,), "float32")
            W = T.alloc_shared((4 * block,), "float32")
            XS = T.alloc_shared((64, 64), "float16")
            # CHECK: shared-region-out-of-bounds.py:[[@LINE+2]]:35: error: region outside 'S': in dimension 0 it starts at index 0 and spans 33 elements, but the dimension has 32 elements
            # CHECK: shared-region-out-of-bounds.py:[[@LINE-4]]:17: note: 'S' is allocated here with shape [32]
            T.copy(A[bx * block], S[0:block + extra])
            # CHECK: shared-region-out-of-bounds.py:[[@LINE+2]]:62: error: region outside 'W': in dimension 0 its start takes the values 0 to 96 here and spans 33 elements, but the dimension has 128 elements
            for k in T.Pipelined(4, num_stages=2):
                T.copy(A[k * block:(k + 1) * block + extra], W[k * block:(k + 1) * block + extra])
            if bx < extra:
                T.copy(A[0:block + 1], S[0:block + 1])
            T.copy(X, XS)
            # CHECK: shared-region-out-of-bounds.py:[[@LINE+1]]:20: error: region outside 'XS': in dimension 1 it starts at index 32 and spans 33 elements, but the dimension has 64 elements
            T.copy(XS[0:64, 32:64 + extra], Y[0:64, 0:32 + extra])
            for i in T.Parallel(block):
                B[bx * block + i] = S[i] + W[i]
    return main
# CHECK-NOT: error:
