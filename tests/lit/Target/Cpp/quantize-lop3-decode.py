# tilelang.quantize.get_lop3_intrin_group's decoders (the fast path of the
# dequantize GEMV example): T.import_source of its c_source and
# T.call_extern of its func_name. TileLang's source is inline PTX; tlc
# returns its own portable source of the same function under the same name,
# so the kernel builds for every target. Checked against NumPy emulating
# the PTX (lop3.b32 with (a & b) | c, then sub.f16x2 of 0x6400 or 0x6408 in
# float16) on the CPU target, and on the sim device against the CPU target.
# A decoder tlc does not model (with scaling) stays an object from outside
# TileLang: building a kernel that calls it is an error at the call.
# RUN: tlc-build --emit=tile --kernel decode %s | FileCheck %s --check-prefix=TILE
# TILE: tile.imported_sources = ["// tlc's decode_i4u_to_f16
# TILE: tile.intrinsic "T.call_extern"({{.*}}) {options = {func_name = "decode_i4u_to_f16"}
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu --kernel decode %s > /dev/null
# RUN: tlc-run %t/cpu --seed 5 --save %t/out > /dev/null
# RUN: %python %S/Inputs/lop3_decode_check.py %t/out/decode %t/out/decode_1 | FileCheck %s --check-prefix=OUT
# OUT: decode_i4u_to_f16 exact
# OUT: decode_i4s_to_f16 exact
# RUN: tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cuda --kernel decode %s > /dev/null
# RUN: %if sim-compiler %{ tlc-run %t/cuda --device sim --seed 5 --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# SIM: verify C: PASS
# SIM: verify C: PASS
# RUN: not tlc-build --target=cpu -o %t/scaled --kernel decode_scaled %s 2>&1 | FileCheck %s --check-prefix=ERR
# ERR: error: cannot build this kernel: it calls 'T.call_extern of tilelang.quantize.get_lop3_intrin_group(...)['func_name']'

import tilelang
import tilelang.language as T
from tilelang.quantize import get_lop3_intrin_group


@tilelang.jit
def decode(N=256, source_format="uint", storage_dtype="int8"):
    info = get_lop3_intrin_group(out_dtype="float16", source_format=source_format,
                                 source_bit=4, storage_dtype=storage_dtype)

    @T.prim_func
    def main(B: T.Tensor((N, 4), "int8"), C: T.Tensor((N, 8), "float16")):
        with T.Kernel(T.ceildiv(N, 64), threads=64) as bx:
            q = T.alloc_local((4,), "int8")
            h = T.alloc_local((8,), "float16")
            T.import_source(info["c_source"])
            row = bx * 64 + T.get_thread_binding()
            for v in T.vectorized(4):
                q[v] = B[row, v]
            T.call_extern(info["func_name"], T.address_of(q[0]), T.address_of(h[0]),
                          dtype="float16")
            for v in T.serial(8):
                C[row, v] = h[v]

    return main


@tilelang.jit
def decode_scaled(N=64):
    info = get_lop3_intrin_group(out_dtype="float16", with_scaling=True)

    @T.prim_func
    def main(B: T.Tensor((N, 4), "int8"), C: T.Tensor((N, 8), "float16")):
        with T.Kernel(1, threads=64) as bx:
            q = T.alloc_local((4,), "int8")
            h = T.alloc_local((8,), "float16")
            T.import_source(info["c_source"])
            for v in T.serial(4):
                q[v] = B[T.get_thread_binding(), v]
            T.call_extern(info["func_name"], T.address_of(q[0]), T.address_of(h[0]),
                          dtype="float16")
            for v in T.serial(8):
                C[T.get_thread_binding(), v] = h[v]

    return main


decode()
decode(source_format="int", storage_dtype="int32")
decode_scaled()
