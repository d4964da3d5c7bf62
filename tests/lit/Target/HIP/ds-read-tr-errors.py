# T.ds_read_tr16_b64 / T.ds_read_tr8_b64: what is wrong with the program is
# reported at --check, at the argument (src is not LDS, or its elements do
# not tile 8 bytes); what a target cannot generate only when building for
# it: gfx90a / gfx942 have no such instruction, nor NVIDIA GPUs, and the
# read needs whole wavefronts of 64.
# RUN: not tlc-build --check %s 2>&1 | FileCheck %s --check-prefix=CHECK
# CHECK: ds-read-tr-errors.py:28:51: error: T.ds_read_tr16_b64 reads LDS: src must be an element of a shared buffer (T.alloc_shared), e.g. A_shared[i, j], not of a 'global' buffer
# CHECK: ds-read-tr-errors.py:37:50: error: T.ds_read_tr8_b64 reads 8 bytes of whole elements; a 'float4_e2m1fn' element does not tile them
# CHECK-NOT: {{ error: }}
# RUN: not tlc-build --target=hip:gfx942 --emit=hip --kernel=good %s 2>&1 | FileCheck %s --check-prefix=G942
# G942: error: T.ds_read_tr16_b64: is gfx950's ds_read_b64_tr_b16, which gfx942 does not have (clang's __builtin_amdgcn_ds_read_tr16_b64 needs gfx950): build for hip:gfx950 only
# RUN: not tlc-build --target=hip:gfx950,gfx90a --emit=hip --kernel=good %s 2>&1 | FileCheck %s --check-prefix=G90A
# G90A: which gfx90a does not have
# RUN: not tlc-build --target=cuda:sm_90a --emit=cuda --kernel=good %s 2>&1 | FileCheck %s --check-prefix=CUDA
# CUDA: error: 'T.ds_read_tr16_b64' is gfx950's transposing LDS read (AMD CDNA4, wavefronts of 64), which NVIDIA GPUs do not have: build for hip:gfx950
# RUN: not tlc-build --target=hip:gfx950 --emit=hip --kernel=half_wave %s 2>&1 | FileCheck %s --check-prefix=WAVE
# WAVE: error: T.ds_read_tr8_b64: is executed by whole wavefronts of 64 lanes, but here the block's 32 threads are not a multiple of 64
import tilelang
import tilelang.language as T


@tilelang.jit
def not_lds(X, Y):
    X: T.Tensor[[16, 16], T.float16]
    Y: T.Tensor[[128], T.uint32]
    with T.Kernel(1, threads=64):
        tx = T.get_thread_binding()
        Y[tx * 2:tx * 2 + 2] = T.ds_read_tr16_b64(X[tx // 4, 4 * (tx % 4)])


@tilelang.jit
def fp4(Y):
    Y: T.Tensor[[128], T.uint32]
    with T.Kernel(1, threads=64):
        tx = T.get_thread_binding()
        s = T.alloc_shared((32, 32), T.float4_e2m1fn)
        Y[tx * 2:tx * 2 + 2] = T.ds_read_tr8_b64(s[tx // 2, 0])


@tilelang.jit
def good(X, Y):
    X: T.Tensor[[16, 16], T.float16]
    Y: T.Tensor[[128], T.uint32]
    with T.Kernel(1, threads=64):
        tx = T.get_thread_binding()
        s = T.alloc_shared((16, 16), T.float16)
        T.copy(X, s)
        T.sync_threads()
        Y[tx * 2:tx * 2 + 2] = T.ds_read_tr16_b64(s[tx // 4, 4 * (tx % 4)])


@tilelang.jit
def half_wave(X, Y):
    X: T.Tensor[[32, 16], T.int8]
    Y: T.Tensor[[64], T.uint32]
    with T.Kernel(1, threads=32):
        tx = T.get_thread_binding()
        s = T.alloc_shared((32, 16), T.int8)
        T.copy(X, s)
        T.sync_threads()
        Y[tx * 2:tx * 2 + 2] = T.ds_read_tr8_b64(s[tx, 0])
