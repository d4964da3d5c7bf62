"""fp8_mqa_logits' pattern at a small size: s = K Q^T summed over 64 fp8
products per element (T.gemm), then Logits[n, b] = sum over 16 heads h of
relu(s[n, 16 b + h]) W[16 b + h]. `fault=1` leaves out the relu (a planted
fault in the arithmetic after the gemm)."""
import tilelang
import tilelang.language as T


@tilelang.jit
def fp8_relu_logits(fault=0):

    @T.prim_func
    def main(Q: T.Tensor((64, 64), "float8_e4m3fn"),
             Kv: T.Tensor((128, 64), "float8_e4m3fn"),
             W: T.Tensor((64,), "float32"),
             Logits: T.Tensor((128, 4), "float32")):
        with T.Kernel(1, threads=128) as _:
            q_s = T.alloc_shared((64, 64), "float8_e4m3fn")
            k_s = T.alloc_shared((128, 64), "float8_e4m3fn")
            s = T.alloc_fragment((128, 64), "float32")
            sr = T.alloc_fragment((128, 4, 16), "float32")
            logits = T.alloc_fragment((128, 4), "float32")
            T.copy(Q, q_s)
            T.copy(Kv, k_s)
            T.gemm(k_s, q_s, s, transpose_B=True, clear_accum=True)
            for n, b, h in T.Parallel(128, 4, 16):
                if fault == 1:
                    sr[n, b, h] = s[n, b * 16 + h] * W[b * 16 + h]
                else:
                    sr[n, b, h] = T.max(s[n, b * 16 + h], 0) * W[b * 16 + h]
            T.reduce_sum(sr, logits, dim=-1, clear=True)
            T.copy(logits, Logits)

    return main


fp8_relu_logits()
