# Vector values as TileLang's extract_lane test builds them: a T.alloc_var
# of a vector dtype assigned `T.float16x2(a, b)` (a T.Shuffle of scalars),
# then T.extract_lane at a constant or run-time lane. No target has vector
# registers ("the CUDA target does not support element type
# 'vector<2xf16>'"); after tracing, each vector value is replaced by its
# lanes (a local buffer of N elements for the variable). The CPU target
# against NumPy; CUDA and HIP code on the sim device against the CPU.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile --kernel=swap_f16 %s | FileCheck %s --check-prefix=TILE
# TILE: tile.alloc : !tile.buffer<[2], f16, local>
# TILE-NOT: vector<
# TILE-NOT: T.extract_lane
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 3 --save %t/out > /dev/null
# RUN: %python -c "import numpy as np; d='%t/out/'; ok=[np.array_equal(np.load(d+k+'/B.npy'), np.load(d+k+'/inputs/A.npy')[::-1]) for k in ('swap_f16', 'swap_bf16')]; a=np.load(d+'lanes_i8/inputs/A.npy'); ok.append(np.array_equal(np.load(d+'lanes_i8/B.npy'), a[:, ::-1])); print('lanes', ok)" | FileCheck %s --check-prefix=NUMPY
# NUMPY: lanes [True, True, True]
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda --no-source-lines --kernel=lanes_i8 %s | FileCheck %s --check-prefix=CUDA
# CUDA: int8_t v[4];
# CUDA: B[{{.*}}] = t_{{[0-9]+}};
# RUN: tlc-build --target=hip:gfx942 --emit=hip %s > /dev/null
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cuda %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/cuda --device sim --seed 3 --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# SIM-COUNT-3: verify B: PASS
import tilelang
import tilelang.language as T


def swap_kernel(dtype, vector_dtype):

    @T.prim_func
    def main(A: T.Tensor((2,), dtype), B: T.Tensor((2,), dtype)):
        with T.Kernel(1, threads=1):
            packed = T.alloc_var(vector_dtype)
            packed = vector_dtype(A[0], A[1])
            B[0] = T.extract_lane(packed, 1)
            B[1] = T.extract_lane(packed, 0)

    return main


@tilelang.jit
def swap_f16():
    return swap_kernel(T.float16, T.float16x2)


@tilelang.jit
def swap_bf16():
    return swap_kernel(T.bfloat16, T.bfloat16x2)


@tilelang.jit
def lanes_i8(A: T.Tensor((4, 4), T.int8), B: T.Tensor((4, 4), T.int8)):
    with T.Kernel(4, threads=4) as bx:
        tx = T.get_thread_binding()
        v = T.alloc_var(T.int8x4)
        v = T.int8x4(A[bx, 0], A[bx, 1], A[bx, 2], A[bx, 3])
        # The lane known only at run time: a select over the four.
        B[bx, tx] = T.extract_lane(v, 3 - tx)
