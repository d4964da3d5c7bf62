# `tilelang.contrib.nvcc.get_target_compute_version()` answers with the
# target's compute capability as "major.minor" (sm_90a: "9.0", the a100
# part: "8.0"), and `parse_compute_version` splits it into integers, so a
# program that keys its tile shapes on the architecture analyses to the
# instance that part would build (no KeyError on an unknown object).
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile --target=cuda:sm_90a %s | FileCheck %s --check-prefix=SM90
# RUN: tlc-build --emit=tile --target=cuda:sm_90a --device=a100 %s | FileCheck %s --check-prefix=SM80

import tilelang
import tilelang.language as T
from tilelang.contrib import nvcc

arch = nvcc.get_target_compute_version()
major, minor = nvcc.parse_compute_version(arch)
META = {"8.0": (16, "int16"), "9.0": (8, "uint8")}


@tilelang.jit
def meta_copy(M=64, K=128):
    factor, meta_dtype = META[arch]
    cols = K // factor + major * 0 + minor

    @T.prim_func
    def main(E: T.Tensor((M, cols), meta_dtype), F: T.Tensor((M, cols), meta_dtype)):
        with T.Kernel(1, threads=128) as bx:
            E_shared = T.alloc_shared((M, cols), meta_dtype)
            T.copy(E, E_shared)
            T.copy(E_shared, F)

    return main


meta_copy()

# SM90: tile.func @meta_copy(%E: !tile.buffer<[64, 16], ui8, global>
# SM80: tile.func @meta_copy(%E: !tile.buffer<[64, 8], i16, global>
