# T.call_extern of a name TileLang's quantize library computes
# (get_lop3_intrin_group(...)["func_name"], with its decoder source in
# ["c_source"]) for a decoder tlc does not model (with scales; those it does:
# Target/Cpp/quantize-lop3-decode.py): the call is analysed as opaque (a
# warning naming where the name comes from), building it an error there.
# RUN: tlc-build --check --no-source-lines %s 2>&1 | FileCheck %s --check-prefix=CHECKW --implicit-check-not=error:
# RUN: not tlc-build --emit=cpp --target=cpu --no-source-lines %s 2>&1 | FileCheck %s --check-prefix=BUILD

import tilelang
import tilelang.language as T
from tilelang.quantize import get_lop3_intrin_group


@tilelang.jit
def dequant(N=1024, block=128):
    info = get_lop3_intrin_group(out_dtype="float16", source_format="uint", source_bit=4,
                                 storage_dtype="int8", with_scaling=True, with_zeros=False)

    @T.prim_func
    def main(B: T.Tensor((N // 2,), T.int8), C: T.Tensor((N,), T.float16)):
        with T.Kernel(N // block, threads=1) as bx:
            T.import_source(info["c_source"])
            q = T.alloc_local((block // 2,), T.int8)
            d = T.alloc_local((block,), T.float16)
            for v in T.serial(block // 2):
                q[v] = B[bx * (block // 2) + v]
            T.call_extern(info["func_name"], T.address_of(q[0]), T.address_of(d[0]),
                          dtype="handle")
            for v in T.serial(block):
                C[bx * block + v] = d[v]

    return main


dequant()

# CHECKW: extern-library-name.py:27:13: warning: the extern function's name is tilelang.quantize.get_lop3_intrin_group(...)['func_name'], a decoder of TileLang's quantize library whose source tlc does not carry
# BUILD: extern-library-name.py:27:13: error: cannot build this kernel: it calls 'T.call_extern of tilelang.quantize.get_lop3_intrin_group(...)['func_name']'
