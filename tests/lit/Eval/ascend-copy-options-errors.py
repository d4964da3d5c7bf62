# RUN: tlc-build --verify-diagnostics %s
# T.copy's Ascend keywords and the scale-factor handles are refused where
# TileLang refuses them: an unknown L2 policy, pad_value with data_select,
# scales for a copy that is not into L0A / L0B or that are not in L1, a
# handle of a tile in the wrong memory or whose K has no whole scale, and a
# block-scaled gemm given another tile's handle.
import tilelang
import tilelang.language as T


@tilelang.jit
def misuse(M=64, N=32, K=128):

    @T.prim_func
    def main(X: T.Tensor((M, K), T.float8_e4m3fn), SF: T.Tensor((M, K // 64), T.uint16),
             C: T.Tensor((M, N), T.float32)):
        with T.Kernel(1) as bx:
            x_l1 = T.alloc_l1((M, K), T.float8_e4m3fn)
            sf_l1 = T.alloc_l1((M, K // 64), T.uint16)
            x_ub = T.alloc_shared((M, K), T.float8_e4m3fn)
            a = T.alloc_l0a((M, K), T.float8_e4m3fn)
            a2 = T.alloc_l0a((M, K), T.float8_e4m3fn)
            b = T.alloc_l0b((N, K), T.float8_e4m3fn)
            odd = T.alloc_l0a((M, 96), T.float8_e4m3fn)
            acc = T.alloc_l0c((M, N), T.float32)
            # expected-error@+1 {{T.copy: unknown l2_cache_ctrl policy 'keep_it'}}
            T.copy(X, x_l1, l2_cache_ctrl="keep_it")
            # expected-error@+1 {{T.copy: pad_value and data_select are mutually exclusive}}
            T.copy(X, x_ub, pad_value=0, data_select=True)
            # expected-error@+1 {{T.copy: scale= loads the MX scale factors of a copy into L0A or L0B (T.alloc_l0a / T.alloc_l0b), but 'x_ub' is in shared.dyn}}
            T.copy(x_l1, x_ub, scale=sf_l1)
            # expected-error@+1 {{T.copy: the scale factors are read from L1 (T.alloc_l1), but 'SF' is in global}}
            T.copy(x_l1, a, scale=SF)
            # expected-error@+1 {{T.alloc_l0a_sf: expected a shared.l0a data tile (T.alloc_l0a), but 'b' is in shared.l0b}}
            T.alloc_l0a_sf(b)
            # expected-error@+1 {{T.alloc_l0a_sf: the K extent 96 of 'odd' is not a multiple of 64 (K elements per uint16 scale element); pass sf_shape explicitly}}
            T.alloc_l0a_sf(odd)
            # expected-error@+1 {{T.alloc_l0b_sf: L0 scale factors are stored as 8-bit scales or 16-bit scale pairs, not float32}}
            T.alloc_l0b_sf(b, sf_dtype="float32")
            # expected-error@+1 {{T.alloc_l0a_sf: the scale-factor shape [64] must keep the leading dimensions of 'a' [64, 128]}}
            T.alloc_l0a_sf(a, sf_shape=(64,))
            a_sf = T.alloc_l0a_sf(a)
            b_sf = T.alloc_l0b_sf(b)
            # expected-error@+1 {{T.gemm_blockscaled scale factors SFA 'a_sf' are the handle of 'a' (T.alloc_l0a_sf), not of operand A 'a2'}}
            T.gemm_blockscaled(a2, b, acc, a_sf, b_sf, transpose_B=True)
            # expected-error@+1 {{T.ascend_set_copy_pad_value: dtype= is required when the value is a Python number}}
            T.ascend_set_copy_pad_value(0.0)
            # expected-error@+1 {{T.assume_no_conflict: level must be None, -1 or a non-negative integer, got -2}}
            T.assume_no_conflict(x_ub, level=-2)

    return main


misuse()
