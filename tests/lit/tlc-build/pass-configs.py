# pass_configs= and compile_flags= (of @tilelang.jit and tilelang.compile),
# T.annotate_pass_configs / T.annotate_compile_flags in the body and
# tlc-build's --pass-config / --compile-flag are merged per instance (the
# body's < the decorator's < tilelang.compile's < the command line's) and
# recorded on the tile.func; TL_DISABLE_WGMMA keeps an sm_90a gemm on
# mma.sync (code and hints), compile flags and the ptxas pass configs reach
# the device compiler.
# REQUIRES: nvrtc
#
# RUN: tlc-build --emit=tile --target=cuda:sm_90a %s | FileCheck %s --check-prefix=TILE
# TILE-LABEL: tile.func @gemm_wgmma
# TILE-SAME: tile.compile_flags = ["-DFROM_BODY=1"], tile.pass_configs = {tl.disable_wgmma = "False"}
# TILE-LABEL: tile.func @gemm_mma
# TILE-SAME: tile.compile_flags = ["-DFROM_BODY=1", "-DFROM_STRING=1", "-DFROM_DECORATOR=1"]
# TILE-SAME: tile.pass_configs = {tl.device_compile_flags = "-DFROM_STRING=1", tl.disable_wgmma = "True", tl.ptxas_register_usage_level = "8"}
# TILE-LABEL: tile.func @scale
# TILE-SAME: tile.compile_flags = ["-DFROM_COMPILE=1"]
# TILE-SAME: tile.pass_configs = {tl.enable_fast_math = "False"}
#
# The command line wins over the source.
# RUN: tlc-build --emit=tile --target=cuda:sm_90a --kernel=gemm_mma --pass-config=tl.disable_wgmma=False --compile-flag=-DFROM_CLI %s | FileCheck %s --check-prefix=CLI
# CLI: tile.compile_flags = [{{.*}}"-DFROM_DECORATOR=1", "-DFROM_CLI"]
# CLI-SAME: tl.disable_wgmma = "False"
# RUN: not tlc-build --check --pass-config=tl.disable_wgmma %s 2>&1 | FileCheck %s --check-prefix=BADARG
# BADARG: tlc-build: error: --pass-config expects key=value, got 'tl.disable_wgmma'
#
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a --kernel=gemm_wgmma %s | FileCheck %s --check-prefix=WGMMA
# WGMMA: wgmma
# TL_DISABLE_TMA_LOWER keeps the pipelined loads on cp.async.
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a --kernel=gemm_wgmma %s | FileCheck %s --check-prefix=TMA
# TMA: tlc::cuda::tmaLoad
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a --kernel=gemm_wgmma --pass-config=tl.disable_tma_lower=True %s | FileCheck %s --check-prefix=NOTMA
# NOTMA-NOT: tmaLoad
# NOTMA: tlc::cuda::cpAsync
# NOTMA-NOT: tmaLoad
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a --kernel=gemm_mma %s | FileCheck %s --check-prefix=MMA
# MMA-NOT: wgmma
# MMA: tlc::cuda::mmaM16N8K16
# MMA-NOT: wgmma
# RUN: tlc-build --emit=hints --target=cuda:sm_90a %s | FileCheck %s --check-prefix=HINTS
# HINTS: "kernel":"gemm_wgmma"{{.*}}"name":"C_l"{{.*}}"layout":"wgmma.C · 4×1 warps
# HINTS: "kernel":"gemm_mma"{{.*}}"name":"C_l"{{.*}}"layout":"mma.C · 2×2 warps
#
# The flags reach NVRTC: an option it does not know fails the build, and
# names the flag; the register-usage level is an option it accepts.
# RUN: rm -rf %t && not env TLC_NO_CACHE=1 tlc-build --target=cuda:sm_90a --cuda-compiler=nvrtc --kernel=gemm_mma --compile-flag=--no-such-nvrtc-option -o %t %s 2>&1 | FileCheck %s --check-prefix=BADFLAG
# BADFLAG: --no-such-nvrtc-option
# RUN: rm -rf %t && env TLC_NO_CACHE=1 tlc-build --target=cuda:sm_90a --cuda-compiler=nvrtc --kernel=gemm_mma -o %t %s | FileCheck %s --check-prefix=BUILT
# BUILT: wrote {{.*}}gemm_mma.cubin

import tilelang
import tilelang.language as T


def gemm(M, N, K, block_M=128, block_N=128, block_K=32):
    @T.prim_func
    def main(A: T.Tensor((M, K), T.float16), B: T.Tensor((K, N), T.float16),
             C: T.Tensor((M, N), T.float32)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M),
                      threads=128) as (bx, by):
            T.annotate_pass_configs({"tl.disable_wgmma": False})
            T.annotate_compile_flags(["-DFROM_BODY=1"])
            A_s = T.alloc_shared((block_M, block_K), T.float16)
            B_s = T.alloc_shared((block_K, block_N), T.float16)
            C_l = T.alloc_fragment((block_M, block_N), T.float32)
            T.clear(C_l)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                T.copy(A[by * block_M, k * block_K], A_s)
                T.copy(B[k * block_K, bx * block_N], B_s)
                T.gemm(A_s, B_s, C_l)
            T.copy(C_l, C[by * block_M, bx * block_N])
    return main


@tilelang.jit
def gemm_wgmma(M, N, K):
    return gemm(M, N, K)


# The decorator's TL_DISABLE_WGMMA wins over the body's.
@tilelang.jit(pass_configs={
    tilelang.PassConfigKey.TL_DISABLE_WGMMA: True,
    tilelang.PassConfigKey.TL_PTXAS_REGISTER_USAGE_LEVEL: 8,
    "tl.device_compile_flags": "-DFROM_STRING=1",
}, compile_flags=["-DFROM_DECORATOR=1"])
def gemm_mma(M, N, K):
    return gemm(M, N, K)


@tilelang.jit(pass_configs={"tl.enable_fast_math": True})
def scale(N, block=128):
    @T.prim_func
    def main(X: T.Tensor((N,), T.float32), Y: T.Tensor((N,), T.float32)):
        with T.Kernel(T.ceildiv(N, block), threads=block) as bx:
            for i in T.Parallel(block):
                Y[bx * block + i] = T.exp(X[bx * block + i])
    return main


gemm_wgmma(1024, 1024, 1024)
gemm_mma(1024, 1024, 1024)
tilelang.compile(scale, pass_configs={"tl.enable_fast_math": False},
                 compile_flags="-DFROM_COMPILE=1")
