# RUN: tlc-build --verify-diagnostics %s
# The Ascend forms of T.gemm and T.copy (ascend-gemm.py) are accepted only
# where they make sense: an L0C accumulator needs cube-unit operands (L1,
# L0A, L0B), a non-L0C accumulator still needs shared or fragment operands,
# and `unit_flag_ctrl` belongs to a gemm into L0C or a copy out of it.
import tilelang
import tilelang.language as T


@tilelang.jit
def mixed(M=64, N=64, K=64):

    @T.prim_func
    def main(A: T.Tensor((M, K), T.float16), B: T.Tensor((K, N), T.float16),
             C: T.Tensor((M, N), T.float32)):
        with T.Kernel(1, threads=128) as bx:
            a_l1 = T.alloc_l1((M, K), T.float16)
            a_s = T.alloc_shared((M, K), T.float16)
            b_s = T.alloc_shared((K, N), T.float16)
            acc = T.alloc_l0c((M, N), T.float32)
            frag = T.alloc_fragment((M, N), T.float32)
            T.copy(A, a_l1)
            T.copy(A, a_s)
            T.copy(B, b_s)
            # expected-error@+1 {{T.gemm operand B of an L0C accumulator must be in the cube unit's L1, L0A or L0B (T.alloc_l1 / T.alloc_l0a / T.alloc_l0b), but 'b_s' is in shared.dyn}}
            T.gemm(a_l1, b_s, acc)
            # expected-error@+1 {{T.gemm operand A must be in shared memory or a fragment, but 'a_l1' is in shared.l1}}
            T.gemm(a_l1, b_s, frag)
            # expected-error@+1 {{T.gemm: unit_flag_ctrl is TileLang's Ascend argument of a gemm into L0C (T.alloc_l0c), but 'frag' is in local.fragment}}
            T.gemm(a_s, b_s, frag, unit_flag_ctrl=2)
            # expected-error@+1 {{T.copy: unit_flag_ctrl is TileLang's Ascend argument of a copy out of L0C (T.alloc_l0c), but 'frag' is in local.fragment}}
            T.copy(frag, C, unit_flag_ctrl=3)

    return main


mixed()
