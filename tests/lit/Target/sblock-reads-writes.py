# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s | FileCheck %s --check-prefix=CUDA
# RUN: tlc-build --target=hip:gfx942 --emit=hip --no-source-lines %s | FileCheck %s --check-prefix=HIP
# RUN: tlc-build --target=cpu --emit=cpp --no-source-lines %s | FileCheck %s --check-prefix=CPU
#
# T.reads() / T.writes() in a T.sblock declare the block's read and write
# regions; TileLang keeps them as annotations of the block and generates
# no code for them. Every target drops them (a comment says so) and
# builds the copies around them.
#
# CUDA: // T.reads: the block's regions, an annotation with no code
# CUDA: // T.writes: the block's regions, an annotation with no code
# HIP: // T.reads: the block's regions, an annotation with no code
# HIP: // T.writes: the block's regions, an annotation with no code
# CPU: T.reads(): the block's regions, an annotation with no code
# CPU: T.writes(): the block's regions, an annotation with no code
#
# The kernel copies A into B through shared memory: built for sm_90a and
# run on the sim device, B agrees with the CPU target's, which is A.
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --save %t/out > /dev/null
# RUN: %python -c "import numpy as np; d='%t/out/'; print(bool((np.load(d+'B.npy') == np.load(d+'inputs/A.npy')).all()))" | FileCheck %s --check-prefix=NUMPY
# NUMPY: True
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sim %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sim --device sim --verify --reference %t/cpu 2>&1 | FileCheck %s --check-prefix=SIM %}
# SIM: verify B: PASS
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((16, 16), "int32"), B: T.Tensor((16, 16), "int32")):
    with T.Kernel(1, threads=128):
        tile = T.alloc_shared((16, 16), "int32")
        with T.sblock("outer"):
            T.reads(A[0:16, 0:16])
            T.writes(tile[0:16, 0:16])
            T.copy(A, tile)
        with T.sblock("inner"):
            T.reads()
            T.writes()
        T.copy(tile, B)
