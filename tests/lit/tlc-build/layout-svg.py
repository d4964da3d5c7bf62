# RUN: rm -rf %t && tlc-build --target=cuda:sm_80 --emit=layout-svg %s -o %t | FileCheck %s --check-prefix=FILES
# RUN: %python %S/Inputs/check_layout_svg.py fragment %t/small.0.acc.svg 64 64 128 1 | FileCheck %s --check-prefix=ACC
# RUN: %python %S/Inputs/check_layout_svg.py shared %t/small.0.A_s.svg 64 32 2 1
# RUN: %python %S/Inputs/check_layout_svg.py shared %t/small.0.S_s.svg 16 64 4 0
# RUN: %python %S/Inputs/check_layout_svg.py fragment %t/large.1.acc.svg 128 128 256 0 | FileCheck %s --check-prefix=LARGE
# RUN: tlc-build --target=cuda:sm_80 --emit=layout-svg --kernel=small --buffer=acc %s > %t/stdout.svg
# RUN: cmp %t/stdout.svg %t/small.0.acc.svg
# RUN: not tlc-build --target=cuda:sm_80 --emit=layout-svg --buffer=acc %s 2>&1 | FileCheck %s --check-prefix=SEVERAL
# RUN: not tlc-build --target=cuda:sm_80 --emit=layout-svg --buffer=nope %s 2>&1 | FileCheck %s --check-prefix=NONE
# Pictures of every fragment and shared buffer: a 64x64 accumulator of 4
# warps (drawn with its thread/register text), a 128x128 one of 8 warps
# (16,384 cells: colours and tooltips only), a gemm operand the CUDA target
# swizzles (rows of 4 chunks) and an f32 tile it keeps row-major.
import tilelang
import tilelang.language as T


@tilelang.jit
def small(M=256, N=256):
    @T.prim_func
    def main(A: T.Tensor((M, 32), T.float16), B: T.Tensor((32, N), T.float16),
             C: T.Tensor((M, N), T.float32)):
        with T.Kernel(N // 64, M // 64, threads=128) as (bx, by):
            A_s = T.alloc_shared((64, 32), T.float16)
            B_s = T.alloc_shared((32, 64), T.float16)
            S_s = T.alloc_shared((16, 64), T.float32)
            acc = T.alloc_fragment((64, 64), T.float32)
            T.copy(A[by * 64, 0], A_s)
            T.copy(B[0, bx * 64], B_s)
            T.gemm(A_s, B_s, acc, clear_accum=True)
            T.copy(C[by * 64, bx * 64], S_s)
            T.copy(acc, C[by * 64, bx * 64])
    return main


@tilelang.jit
def large(M=256, N=256):
    @T.prim_func
    def main(A: T.Tensor((M, 32), T.float16), B: T.Tensor((32, N), T.float16),
             C: T.Tensor((M, N), T.float32)):
        with T.Kernel(N // 128, M // 128, threads=256) as (bx, by):
            A_s = T.alloc_shared((128, 32), T.float16)
            B_s = T.alloc_shared((32, 128), T.float16)
            acc = T.alloc_fragment((128, 128), T.float32)
            T.copy(A[by * 128, 0], A_s)
            T.copy(B[0, bx * 128], B_s)
            T.gemm(A_s, B_s, acc, clear_accum=True)
            T.copy(acc, C[by * 128, bx * 128])
    return main


small()
large()

# FILES-DAG: small.0.A_s.svg
# FILES-DAG: small.0.B_s.svg
# FILES-DAG: small.0.S_s.svg
# FILES-DAG: small.0.acc.svg
# FILES-DAG: large.1.A_s.svg
# FILES-DAG: large.1.acc.svg

# ACC: ok fragment 64x64 128 threads: acc — fragment 64×64 float32 · mma.C · 2×2 warps · 32 regs/thread · 128 threads · small()
# LARGE: ok fragment 128x128 256 threads: acc — fragment 128×128 float32 · mma.C

# SEVERAL: error: --emit=layout-svg without -o prints one picture, and 2 buffers match
# SEVERAL: acc in small(
# SEVERAL: acc in large(
# NONE: error: --emit=layout-svg: no buffer named 'nope' with a layout
