# Strided tensor parameters (`T.StridedTensor`, `T.Buffer(strides=)`): every
# target addresses them with their strides. They used to index them
# row-major, a silent wrong answer: strides (1, 64) on a (64, 32) tensor
# read `A[i * 32 + j]`.
#
# * CUDA and HIP address them `index * stride` per dimension; 16-byte
#   vectors and cp.async only along a unit innermost stride (a transposed
#   view goes element by element); a T.dynamic stride is a kernel symbol.
# * On sm_90a a tensor map takes the static strides (byte strides of the
#   padded pitch); a transposed view keeps cp.async.
# * On the CPU the parameter view is `stridedView` with the strides.
# * The manifest records the strides; a symbol only a stride gives is of
#   kind `stride`; tlc-run places the tensors at their strides (padding
#   poisoned with NaN) and reads them back.
#
# End to end: the CPU target against NumPy on a transposed (column-major)
# input, a padded-pitch input, a T.dynamic pitch and a transposed output;
# the CUDA and HIP code on the sim device against the CPU target.
#
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=cuda --target=cuda:sm_80 %s | FileCheck %s --check-prefix=CUDA
# RUN: tlc-build --emit=hip --target=hip:gfx942 %s | FileCheck %s --check-prefix=HIP
# RUN: tlc-build --emit=cpp --target=cpu %s | FileCheck %s --check-prefix=CPU
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: %python %S/Inputs/strided_params_manifest.py %t/cpu | FileCheck %s --check-prefix=MANIFEST
# RUN: tlc-run %t/cpu --kernel views --seed 3 --save %t/views > /dev/null
# RUN: tlc-run %t/cpu --kernel pitched_kernel --seed 4 -D rows=37 -D pitch=300 --save %t/pitched > /dev/null
# RUN: tlc-run %t/cpu --kernel gemm_views --seed 5 --save %t/gemm > /dev/null
# RUN: %python %S/Inputs/strided_params_ref.py %t | FileCheck %s --check-prefix=NUMPY
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/sm80 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm80 --device sim -D rows=37 -D pitch=300 --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sm90 %s > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/strided_params_manifest.py %t/sm90 | FileCheck %s --check-prefix=TMA %}
# RUN: %if sim-compiler %{ tlc-run %t/sm90 --device sim -D rows=37 -D pitch=300 --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# RUN: %if hip-toolchain && sim-compiler %{ tlc-build --target=hip:gfx942 -o %t/gfx942 %s > /dev/null %}
# RUN: %if hip-toolchain && sim-compiler %{ tlc-run %t/gfx942 --device sim -D rows=37 -D pitch=300 --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}

import tilelang
import tilelang.language as T

M = 64
N = 32


# CUDA-LABEL: views_kernel(
# The transposed view: element by element, index times stride.
# CUDA: A_s[{{.*}}] = A[(t + i0) + ((i1 + e)) * 64];
# CUDA-NOT: copyVector<16>(&A_s
# The padded pitch (40 floats): 16-byte vectors, row times 40.
# CUDA: copyVector<16>(&P_s[(i0_1) * 32 + i1_1], &P[((t_1 + i0_1)) * 40 + i1_1]);
# HIP-LABEL: views_kernel(
# HIP: A_s[{{.*}}] = A[(t + i0) + ((i1 + e)) * 64];
# HIP: &P[((t_1 + i0_1)) * 40 + i1_1]
# CPU-LABEL: tlc_views(
# CPU: tlc::cpu::stridedView<float, 2>(static_cast<float *>(args->params[0]), {64, 32}, {1, 64});
# CPU: tlc::cpu::stridedView<float, 2>(static_cast<float *>(args->params[1]), {64, 32}, {40, 1});
# CPU: tlc::cpu::stridedView<float, 2>(static_cast<float *>(args->params[2]), {64, 32}, {1, 64});
# CPU: tlc::cpu::denseView<float, 2>(static_cast<float *>(args->params[3]), {64, 32});
@T.prim_func
def views(A: T.StridedTensor[(M, N), (1, M), T.float32],
          P: T.StridedTensor[(M, N), (N + 8, 1), T.float32],
          Q: T.Buffer((M, N), T.float32, strides=(1, M)),
          B: T.Tensor((M, N), T.float32)):
    with T.Kernel(M // 16, threads=128) as bx:
        A_s = T.alloc_shared((16, N), T.float32)
        P_s = T.alloc_shared((16, N), T.float32)
        T.copy(A[bx * 16, 0], A_s)
        T.copy(P[bx * 16, 0], P_s)
        for i, j in T.Parallel(16, N):
            B[bx * 16 + i, j] = A_s[i, j] * 2.0 + P_s[i, j] - Q[bx * 16 + i, j]


# A T.dynamic pitch is a kernel symbol (kind `stride` in the manifest), and
# a transposed output is written element by element at its strides.
# CUDA-LABEL: pitched_kernel_kernel(
# CUDA-SAME: long long rows, long long pitch)
# CUDA: X[(long long)(bx) * pitch + (long long)i0]
# CUDA: Z[(long long)bx + (long long)(i0) * rows] =
# CPU-LABEL: tlc_pitched_kernel(
# CPU: tlc::cpu::stridedView<float, 2>(static_cast<float *>(args->params[0]), {rows, 256}, {pitch, 1});
# CPU: tlc::cpu::stridedView<float, 2>(static_cast<float *>(args->params[1]), {rows, 256}, {1, rows});
@tilelang.jit
def pitched_kernel(hidden):
    rows = T.dynamic("rows")
    pitch = T.dynamic("pitch")

    @T.prim_func
    def pitched(X: T.StridedTensor[(rows, hidden), (pitch, 1), T.float32],
                Z: T.StridedTensor[(rows, hidden), (1, rows), T.float32]):
        with T.Kernel(rows, threads=128) as bx:
            for i in T.Parallel(hidden):
                Z[bx, i] = X[bx, i] * 3.0 + 1.0
    return pitched


pitched_kernel(256)


# A pipelined GEMM: on sm_90a the padded operands are loaded by TMA (byte
# strides 384 and 272 in the tensor maps); the transposed output is stored
# element by element.
# TMA: gemm_views A strides [384] B strides [272]
# CUDA-LABEL: gemm_views_kernel(
# CUDA: C[(t_12 + i0_4) + ((t_13 + (i1_4 + e))) * 132] = C_l[r_1 + e];
@T.prim_func
def gemm_views(A: T.StridedTensor[(128, 128), (192, 1), T.float16],
               B: T.StridedTensor[(128, 128), (136, 1), T.float16],
               C: T.StridedTensor[(128, 128), (1, 132), T.float32]):
    with T.Kernel(2, 2, threads=128) as (bx, by):
        A_s = T.alloc_shared((64, 32), T.float16)
        B_s = T.alloc_shared((32, 64), T.float16)
        C_l = T.alloc_fragment((64, 64), T.float32)
        T.clear(C_l)
        for k in T.Pipelined(4, num_stages=2):
            T.copy(A[by * 64, k * 32], A_s)
            T.copy(B[k * 32, bx * 64], B_s)
            T.gemm(A_s, B_s, C_l)
        T.copy(C_l, C[by * 64, bx * 64])


# MANIFEST: views version 6
# MANIFEST: A strides [1, 64]
# MANIFEST: P strides [40, 1]
# MANIFEST: Q strides [1, 64]
# MANIFEST: B strides None
# MANIFEST: pitched_kernel symbols rows:dynamic pitch:stride
# MANIFEST: X strides ['pitch', 1]
# MANIFEST: Z strides [1, 'rows']
# NUMPY: views True
# NUMPY: pitched True
# NUMPY: gemm_views True
# SIM: verify {{.*}}: PASS
# SIM-NOT: FAIL
