# Surface found missing on public TileLang programs (issue #12): each form
# analyses with no diagnostic and gives its hints.
#  - T.Tensor.from_ptr(ptr, shape, dtype) over T.ptr parameters,
#  - tilelang.DataType(dtype).bits in the factory (tvm.DataType re-exported),
#  - T.address_of(buf[i]) handed to T.call_extern,
#  - tilelang.lazy_jit, whose body is traced with its annotated arguments.
# A T.call_extern whose name comes from outside TileLang is a warning (the
# call stays, as a call no target builds), not an error.
# RUN: tlc-build --check %s 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=error: --implicit-check-not=warning:
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# RUN: not tlc-build --emit=cuda --kernel=gemv_extern %s 2>&1 | FileCheck %s --check-prefix=BUILD

import tilelang
import tilelang.language as T
from tilelang import DataType
from some_extension import lookup_decoder


def ptr_copy(M, N, block_M=64, dtype="float16"):
    @T.prim_func
    def main(a_ptr: T.ptr, b_ptr: T.ptr, m: T.int32):
        A = T.Tensor.from_ptr(a_ptr, (m, N), dtype)
        B = T.Tensor.from_ptr(b_ptr, (m, N), dtype)
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
            A_shared = T.alloc_shared((block_M, N), dtype)
            T.copy(A[bx * block_M, 0], A_shared)
            T.copy(A_shared, B[bx * block_M, 0])

    return main


def gemv_extern(N, K, in_dtype="float16", fast=True):
    micro_k = 128 // DataType(in_dtype).bits
    decoder = lookup_decoder(in_dtype) if fast else "decode_i4"

    @T.prim_func
    def main(A: T.Tensor((K,), in_dtype), B: T.Tensor((N, K // 2), "int8"),
             C: T.Tensor((N,), in_dtype)):
        with T.Kernel(N, threads=32) as bx:
            packed = T.alloc_local((micro_k // 2,), "int8")
            decoded = T.alloc_local((micro_k,), in_dtype)
            acc = T.alloc_local((1,), "float32")
            tx = T.get_thread_binding()
            T.clear(acc)
            for ko in T.serial(K // (32 * micro_k)):
                for v in T.vectorized(micro_k // 2):
                    packed[v] = B[bx, (ko * 32 + tx) * (micro_k // 2) + v]
                T.call_extern(decoder, T.address_of(packed[0]),
                              T.address_of(decoded[0]), dtype="handle")
                for v in T.serial(micro_k):
                    acc[0] += decoded[v] * A[(ko * 32 + tx) * micro_k + v]
            C[bx] = acc[0]

    return main


@tilelang.lazy_jit
def scale_rows(X: T.Tensor[[256, 64], T.float32], alpha: T.float32 = 2.0):
    Y = T.empty((256, 64), T.float32)
    with T.Kernel(256 // 32, threads=128) as bx:
        tile = T.alloc_fragment((32, 64), T.float32)
        T.copy(X[bx * 32, 0], tile)
        for i, j in T.Parallel(32, 64):
            tile[i, j] *= alpha
        T.copy(tile, Y[bx * 32, 0])
    return Y


tilelang.compile(ptr_copy(1024, 128))
tilelang.compile(gemv_extern(512, 1024, fast=False))
tilelang.compile(gemv_extern(512, 1024))
scale_rows.compile(X=T.Tensor((256, 64), T.float32))

# DIAG: corpus-surface.py:48:17: warning: tlc cannot evaluate the name of this extern function ('{{.*}}', a value from outside TileLang); the call is analysed as an opaque call, and no target can build the kernel while it is there

# CHECK: "instance":"ptr_copy(1024, 128)","name":"A_shared","kind":"buffer","shape":[64,128],"dtype":"float16","scope":"shared.dyn"
# CHECK: "instance":"gemv_extern(512, 1024, fast=False)","name":"packed","kind":"buffer","shape":[4],"dtype":"int8","scope":"local"
# CHECK: "name":"decoded","kind":"buffer","shape":[8],"dtype":"float16","scope":"local"
# CHECK: "instance":"gemv_extern(512, 1024)","name":"decoded","kind":"buffer","shape":[8],"dtype":"float16","scope":"local"
# CHECK: "instance":"scale_rows(X=<Tensor>)","name":"tile","kind":"buffer","shape":[32,64],"dtype":"float32","scope":"local.fragment"

# BUILD: error: cannot build this kernel: it calls 'T.call_extern of {{.*}}', an object from outside TileLang that tlc does not model
