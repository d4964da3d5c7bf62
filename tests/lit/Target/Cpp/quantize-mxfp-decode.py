# tilelang.quantize.get_mxfp_intrin_group's FP4 (E2M1) -> bfloat16 decoders,
# as upstream's mxfp4 Hopper dequantize GEMM imports and calls them
# (T.import_source of its c_source, T.call_extern of its func_name).
# TileLang's twiddling decoder is inline PTX; tlc returns its own portable
# source of the same function under the same name, so --check is clean and
# the kernel builds for the CPU target. Checked against NumPy emulating the
# PTX (prmt byte reversal, masks, mul.bf16x2 by 2^126) and the OCP E2M1
# table; the scaled GEMM (the example's fast_dequant macro, 2^Scale per 32
# weights) against float64. Without use_twiddling and without a gfx950
# target TileLang's table has no decoder: KeyError, as there.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile --kernel decode %s | FileCheck %s --check-prefix=TILE
# TILE: tile.imported_sources = ["// tlc's decode_fp4_to_bf16_twiddling
# TILE: tile.intrinsic "T.call_extern"({{.*}}) {options = {func_name = "decode_fp4_to_bf16_twiddling"}
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu --kernel decode %s > /dev/null
# RUN: tlc-run %t/cpu --seed 3 --fill 'B=randint(0,256)' --save %t/out > /dev/null
# RUN: %python %S/Inputs/mxfp_decode_check.py twiddled %t/out/decode | FileCheck %s --check-prefix=TWIDDLED
# TWIDDLED: twiddled exact
# RUN: %python %S/Inputs/mxfp_decode_check.py plain %t/out/decode_1 | FileCheck %s --check-prefix=PLAIN
# PLAIN: plain exact
# RUN: tlc-build --target=cpu -o %t/gemm-cpu --kernel dequant_gemm %s > /dev/null
# RUN: tlc-run %t/gemm-cpu --seed 4 --fill 'B=randint(0,256)' --fill 'Scale=randint(0,4)' --save %t/gemm > /dev/null
# RUN: %python %S/Inputs/mxfp_decode_check.py gemm %t/gemm 64 | FileCheck %s --check-prefix=GEMM
# GEMM: gemm close
# RUN: not tlc-build --check %S/Inputs/mxfp-no-decoder.py 2>&1 | FileCheck %s --check-prefix=KEY
# KEY: mxfp-no-decoder.py:6:8: error: KeyError: 'fp4_to_bf16' (raised while running module-level code)

import tilelang
import tilelang.language as T
from tilelang.quantize import get_mxfp_intrin_group


@tilelang.jit
def decode(N=256, use_twiddling=True, target=None):
    info = get_mxfp_intrin_group(out_dtype="bfloat16", source_format="uint", source_bit=4,
                                 storage_dtype="uint8", use_twiddling=use_twiddling,
                                 target=target)

    @T.prim_func
    def main(B: T.Tensor((N, 4), "uint8"), C: T.Tensor((N, 8), "bfloat16")):
        with T.Kernel(T.ceildiv(N, 64), threads=64) as bx:
            q = T.alloc_local((4,), "uint8")
            h = T.alloc_local((8,), "bfloat16")
            T.import_source(info["c_source"])
            # A second import of the same text imports nothing more (its
            # functions would be defined twice).
            T.import_source(info["c_source"])
            row = bx * 64 + T.get_thread_binding()
            for v in T.vectorized(4):
                q[v] = B[row, v]
            T.call_extern(info["func_name"], T.address_of(q[0]), T.address_of(h[0]), 1,
                          dtype="bfloat16")
            for v in T.serial(8):
                C[row, v] = h[v]

    return main


@tilelang.jit(out_idx=[-1])
def dequant_gemm(M=64, N=64, K=256, block_M=64, block_N=64, block_K=64, threads=128,
                 scale_size=32):
    # The fast path of example_dequant_gemm_bf16_mxfp4_hopper.py: packed
    # twiddled FP4 weights, one uint8 exponent per 32 of them.
    num_elems_per_byte = 2
    storage_dtype = "uint8"
    Block_QK = block_K // num_elems_per_byte
    local_size = 128 // 16
    local_compress_size = local_size // num_elems_per_byte
    mxfp_intrin_info = get_mxfp_intrin_group(out_dtype="bfloat16", source_format="uint",
                                             source_bit=4, storage_dtype=storage_dtype,
                                             use_twiddling=True)
    import_source = mxfp_intrin_info["c_source"]
    func_name = mxfp_intrin_info["func_name"]
    assert import_source is not None, "mxfp_intrin_info is not found"

    @T.macro
    def fast_dequant(B_shared, B_dequantize_shared, Scale, k):
        T.import_source(import_source)
        tx = T.get_thread_binding()
        bx = T.get_block_binding(0)
        B_local_thread = T.alloc_local((local_compress_size,), storage_dtype)
        B_dequantize_local_thread = T.alloc_local((local_size,), "bfloat16")
        Scale_local_thread = T.alloc_local((1,), storage_dtype)
        Scale_local_thread_exponent = T.alloc_local((1,), "bfloat16")
        for i in T.serial(0, block_N * block_K // threads // local_size):
            index_base = i * threads * local_compress_size + tx * local_compress_size
            for v in T.vectorized(0, local_compress_size):
                index = index_base + v
                B_local_thread[v] = B_shared[index // Block_QK, index % Block_QK]
            index_scale = index_base // (scale_size // num_elems_per_byte)
            si = index_scale // (block_K // scale_size)
            sj = index_scale % (block_K // scale_size)
            Scale_local_thread[0] = Scale[bx * block_N + si, k * block_K // scale_size + sj]
            Scale_local_thread_exponent[0] = T.shift_left(1, (Scale_local_thread[0]))
            T.call_extern(func_name, T.address_of(B_local_thread[0]),
                          T.address_of(B_dequantize_local_thread[0]), 1, dtype="bfloat16")
            # (The example writes this loop as T.Parallel, which the CPU
            # target refuses on a per-thread local buffer; the same loop.)
            for v in T.serial(local_size):
                B_dequantize_local_thread[v] *= Scale_local_thread_exponent[0]
            for v in T.vectorized(0, local_size):
                index = i * threads * local_size + tx * local_size + v
                B_dequantize_shared[index // block_K, index % block_K] = B_dequantize_local_thread[v]

    @T.prim_func
    def main(A: T.Tensor((M, K), "bfloat16"), B: T.Tensor((N, K // 2), storage_dtype),
             Scale: T.Tensor((N, K // scale_size), storage_dtype),
             C: T.Tensor((M, N), "bfloat16")):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), "bfloat16")
            B_shared = T.alloc_shared((block_N, Block_QK), storage_dtype)
            B_dequantize_shared = T.alloc_shared((block_N, block_K), "bfloat16")
            C_local = T.alloc_fragment((block_M, block_N), "float32")
            T.clear(C_local)
            for k in T.Pipelined(K // block_K, num_stages=2):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[bx * block_N, k * Block_QK], B_shared)
                fast_dequant(B_shared, B_dequantize_shared, Scale, k)
                T.gemm(A_shared, B_dequantize_shared, C_local, transpose_B=True)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main


decode()
decode(use_twiddling=False, target="hip")
dequant_gemm()
