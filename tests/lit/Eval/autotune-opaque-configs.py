# An autotuned factory whose configs tlc cannot evaluate (the carver's
# recommend_hints) and whose tuned parameters default to None: TileLang
# runs it only through the tuner, with a configuration, so tlc does not
# trace the call with the None defaults (a remark says so). Before, it
# did: "TypeError: unsupported operand type(s) for +: 'int' and
# 'NoneType'" at T.ceildiv (issue 12, G11: autotune/
# test_tilelang_autotune_decorator). Known configs still make the
# instance, and a None default the configs do not cover is still traced.
# RUN: tlc-build --check %s 2>&1 | FileCheck %s
# CHECK-NOT: error
# CHECK: autotune-opaque-configs.py:[[# @LINE + 32]]:12: remark: tlc cannot evaluate the autotune configs of 'kernel', so it does not trace this call: its parameter 'block_M' is only ever given by a configuration (its default is None)
# CHECK-NOT: error
# RUN: tlc-build --emit=tile %s | FileCheck %s --check-prefix=TILE
# TILE: tile.func @known(%C: !tile.buffer<[1024, 1024], f16, global>)
# TILE-NOT: tile.func
import tilelang
import tilelang.language as T
from tilelang.carver.arch import CUDA
from tilelang.carver.template import MatmulTemplate


def get_configs(M, N, K):
    hints = MatmulTemplate(M=M, N=N, K=K, in_dtype="float16", out_dtype="float16",
                           accum_dtype="float16").with_arch(CUDA("cuda")).recommend_hints(topk=20)
    return [{"block_M": h.block[0], "block_N": h.block[1]} for h in hints]


def matmul(M, N, K):

    @tilelang.autotune(configs=get_configs(M, N, K))
    @tilelang.jit(out_idx=[-1])
    def kernel(block_M=None, block_N=None):

        @T.prim_func
        def main(C: T.Tensor((M, N), "float16")):
            with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
                C_local = T.alloc_fragment((block_M, block_N), "float")
                T.clear(C_local)
                T.copy(C_local, C[by * block_M, bx * block_N])

        return main

    return kernel()


@tilelang.autotune(configs=[{"block_M": 64, "block_N": 64}])
@tilelang.jit(out_idx=[-1])
def known(M=1024, N=1024, block_M=None, block_N=None):

    @T.prim_func
    def main(C: T.Tensor((M, N), "float16")):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            C_local = T.alloc_fragment((block_M, block_N), "float")
            T.clear(C_local)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main


matmul(1024, 1024, 1024)
known()
