# RUN: tlc-build --verify-diagnostics %s
# Misuses TileLang rejects in the Ascend mixed-kernel surface: a vector
# region of three cores, a negative stage, an unknown scope to unlimit, a
# non-constant manual version count, pipe names that are not strings, a
# block-scaled gemm into L0C with one scale buffer or with L1 operands and
# no scales, and Ascend's keywords on the SM100 form.
import tilelang
import tilelang.language as T


@tilelang.jit
def misuse(M=64, N=64, K=128):

    @T.prim_func
    def main(X: T.Tensor((M, K), T.float8_e4m3fn), W: T.Tensor((N, K), T.float8_e4m3fn),
             C: T.Tensor((M, N), T.float32)):
        with T.Kernel(1) as bx:
            x_l1 = T.alloc_l1((M, K), T.float8_e4m3fn)
            w_l1 = T.alloc_l1((N, K), T.float8_e4m3fn)
            sf_l1 = T.alloc_l1((M, K // 64), T.uint16)
            acc = T.alloc_l0c((M, N), T.float32)
            a_s = T.alloc_shared((M, K), T.float8_e4m3fn)
            b_s = T.alloc_shared((N, K), T.float8_e4m3fn)
            frag = T.alloc_fragment((M, N), T.float32)
            # expected-error@+1 {{T.Vector runs on 1 or 2 vector cores, not 3}}
            with T.Vector(3):
                pass
            # expected-error@+1 {{T.Stage: the stage must be a non-negative integer, got -1}}
            with T.Stage(-1):
                pass
            # expected-error@+1 {{T.annotate_unlimit_memory: 'local.fragment' is not a memory scope it can unlimit}}
            T.annotate_unlimit_memory("shared", "local.fragment")
            # expected-error@+1 {{T.ascend_set_flag: hard_event must be a string such as 'MTE2_MTE1', not 'int'}}
            T.ascend_set_flag(3, 0)
            # expected-error@+1 {{T.ascend_cross_core_wait_flag: pipe must be a string such as 'PIPE_MTE2', not 'int'}}
            T.ascend_cross_core_wait_flag(0, 4, 1)
            # expected-error@+1 {{T.blockscaled_gemm: give the scale factors of both operands (sfa and sfb) or of neither}}
            T.blockscaled_gemm(x_l1, w_l1, acc, sfa=sf_l1, transpose_B=True)
            # expected-error@+1 {{T.blockscaled_gemm operand A 'x_l1' is in shared.l1: without sfa and sfb only operands in L0A / L0B have scale factors}}
            T.blockscaled_gemm(x_l1, w_l1, acc, transpose_B=True)
            # expected-error@+1 {{T.blockscaled_gemm: unit_flag_ctrl belongs to Ascend's form, whose accumulator C is in L0C (T.alloc_l0c)}}
            T.blockscaled_gemm(a_s, b_s, frag, sf_l1, sf_l1, unit_flag_ctrl=3)

    return main


misuse()
