# The unpacked 4/6-bit float dtypes of the newer TileLang (one OCP MX code
# per byte, in its low bits: shared-memory storage tags for the f8f6f4 MMA
# operands): `T.float4_e2m1_unpacked`, `T.float6_e2m3fn_unpacked`,
# `T.float6_e3m2fn_unpacked` and their `custom[...]8` spellings. Shared
# tiles of them take one byte an element (hints, shared-memory size), and
# bytes move in and out with T.reinterpret, as TileLang's fp6 unpacked
# test and its sm120 family GEMMs do. --check is clean; the CPU and CUDA
# code store bytes (values: ../Target/unpacked-floats.py).
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints %s | FileCheck %s --check-prefix=HINTS
# RUN: tlc-build --emit=cuda --target=cuda:sm_100a %s 2>&1 \
# RUN:   | FileCheck %s --check-prefix=CUDA
# RUN: tlc-build --emit=cpp --target=cpu %s 2>&1 | FileCheck %s --check-prefix=CPP
# RUN: rm -rf %t && tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t %s > /dev/null
# RUN: FileCheck %s --check-prefix=SMEM < %t/stage.json
# HINTS: "name":"smem","kind":"buffer","shape":[64],"dtype":"float6_e3m2fn_unpacked","scope":"shared.dyn","layout":"linear","layoutDetail":"layout [64] -> [64] · linear · 8-bit elements
# HINTS: "name":"B_shared","kind":"buffer","shape":[128,128],"dtype":"float4_e2m1_unpacked","scope":"shared.dyn","layout":"linear","layoutDetail":"layout [128, 128] -> [16384] · linear · 8-bit elements
# HINTS: "name":"C_shared","kind":"buffer","shape":[128,128],"dtype":"float6_e2m3fn_unpacked"
# Two 128 x 128 tiles of one byte an element (they were float32 before).
# SMEM: "dynamic_shared_memory": 32768
# CUDA: uint8_t *B_shared = reinterpret_cast<uint8_t *>(smem + 0);
# CUDA: uint8_t *C_shared = reinterpret_cast<uint8_t *>(smem + 16384);
# CUDA-NOT: __nv_fp6
# CPP: tlc::cpu::Local<uint8_t, 1> smem_mem({64});
import tilelang
import tilelang.language as T

e2m3 = T.float6_e2m3fn_unpacked
e3m2 = T.float6_e3m2fn_unpacked
assert e2m3.bits == 8 and e3m2.bits == 8 and T.float4_e2m1_unpacked.bits == 8
assert T.float6_e2m3fn.bits == 6
assert e2m3 != e3m2 and e2m3 != T.float6_e2m3fn
assert T.dtype("custom[float6_e3m2fn_unpacked]8") == e3m2


@T.prim_func
def bytes_roundtrip(OUT: T.Tensor((64,), T.uint8)):
    with T.Kernel(1, threads=64) as _:
        tx = T.get_thread_binding()
        smem = T.alloc_shared((64,), T.float6_e3m2fn_unpacked, scope="shared.dyn")
        smem[tx] = T.reinterpret(T.float6_e3m2fn_unpacked, T.uint8(0))
        OUT[tx] = T.reinterpret(T.uint8, smem[tx])


@tilelang.jit
def stage(N=128, K=256, block_K=128):

    @T.prim_func
    def main(B: T.Tensor((N, K // 2), T.uint8),
             C: T.Tensor((N, K * 3 // 4), T.uint8),
             Out: T.Tensor((N, K), T.float32)):
        with T.Kernel(1, threads=128):
            B_shared = T.alloc_shared((N, block_K), T.float4_e2m1_unpacked,
                                      scope="shared.dyn")
            C_shared = T.alloc_shared((N, block_K),
                                      "custom[float6_e2m3fn_unpacked]8",
                                      scope="shared.dyn")
            for ko in T.serial(K // block_K):
                # Raw payload bytes into 16-element groups (the padded
                # b4x16_p64 / b6x16_p32 forms), as TileLang's SIMT
                # producers write them.
                for i, g, j in T.Parallel(N, block_K // 16, 8):
                    B_shared[i, 16 * g + j] = T.reinterpret(
                        T.float4_e2m1_unpacked,
                        B[i, ko * (block_K // 2) + 8 * g + j])
                for i, g, j in T.Parallel(N, block_K // 16, 12):
                    C_shared[i, 16 * g + j] = T.reinterpret(
                        "custom[float6_e2m3fn_unpacked]8",
                        C[i, ko * (block_K * 3 // 4) + 12 * g + j])
                for i, k in T.Parallel(N, block_K):
                    Out[i, ko * block_K + k] = T.Cast(
                        T.float32, B_shared[i, k]) + T.Cast(
                            T.float32, C_shared[i, k])

    return main


stage()
