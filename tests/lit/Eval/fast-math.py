# RUN: tlc-build --emit=tile %s | FileCheck %s
# RUN: tlc-build --emit=tile %s | tlc-opt | FileCheck %s
# RUN: tlc-build --emit=tile %s | tlc-translate --tile-to-cuda | FileCheck %s --check-prefix=CUDA
# pass_configs with TL_ENABLE_FAST_MATH (the enum key or its string) marks
# the instances `fast_math`; TL_DISABLE_FAST_MATH or a false value does
# not. The CUDA target then uses approximate exp2/exp/log and f32 division;
# other kernels keep IEEE math.
import tilelang
import tilelang.language as T


def body(A, B):
    with T.Kernel(1, threads=128) as bx:
        F = T.alloc_fragment((128,), T.float32)
        T.copy(A, F)
        for i in T.Parallel(128):
            F[i] = T.exp2(F[i]) + T.exp(F[i]) + T.log(F[i]) / F[i]
        T.copy(F, B)


@tilelang.jit(pass_configs={tilelang.PassConfigKey.TL_ENABLE_FAST_MATH: True})
def by_key(A: T.Tensor((128,), T.float32), B: T.Tensor((128,), T.float32)):
    body(A, B)


@tilelang.jit(pass_configs={"tl.enable_fast_math": True})
def by_string(A: T.Tensor((128,), T.float32), B: T.Tensor((128,), T.float32)):
    body(A, B)


@tilelang.jit(pass_configs={tilelang.PassConfigKey.TL_ENABLE_FAST_MATH: True,
                            tilelang.PassConfigKey.TL_DISABLE_FAST_MATH: True})
def disabled(A: T.Tensor((128,), T.float32), B: T.Tensor((128,), T.float32)):
    body(A, B)


@tilelang.jit(pass_configs={tilelang.PassConfigKey.TL_ENABLE_FAST_MATH: False})
def off(A: T.Tensor((128,), T.float32), B: T.Tensor((128,), T.float32)):
    body(A, B)


@tilelang.jit
def plain(A: T.Tensor((128,), T.float32), B: T.Tensor((128,), T.float32)):
    body(A, B)

# CHECK: tile.func @by_key({{.*}}) attributes {fast_math, tile.pass_configs = {tl.enable_fast_math = "True"}} {
# CHECK: tile.func @by_string({{.*}}) attributes {fast_math, tile.pass_configs = {tl.enable_fast_math = "True"}} {
# CHECK: tile.func @disabled({{.*}}) attributes {tile.pass_configs = {tl.disable_fast_math = "True", tl.enable_fast_math = "True"}} {
# CHECK: tile.func @off({{.*}}) attributes {tile.pass_configs = {tl.enable_fast_math = "False"}} {
# CHECK: tile.func @plain({{.*}}) {

# CUDA-LABEL: by_key_kernel(
# CUDA: tlc::cuda::fastExp2(
# CUDA: __expf(
# CUDA: __logf(
# CUDA: __fdividef(
# CUDA-LABEL: by_string_kernel(
# CUDA: tlc::cuda::fastExp2(
# CUDA-LABEL: disabled_kernel(
# CUDA-NOT: fastExp2
# CUDA-NOT: __expf
# CUDA: exp2f(
# CUDA: expf(
# CUDA: logf(
# CUDA-LABEL: off_kernel(
# CUDA-NOT: fastExp2
# CUDA: exp2f(
# CUDA-LABEL: plain_kernel(
# CUDA-NOT: fastExp2
# CUDA-NOT: __fdividef
# CUDA: exp2f(
