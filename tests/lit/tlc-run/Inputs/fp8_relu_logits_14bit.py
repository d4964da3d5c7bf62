"""fp8_relu_logits.py with its 64 products per element summed one at a time
in an accumulator that keeps 14 significand bits (as fp8_gemm_14bit.py:
the tensor-core accumulation tlc-run's fp8 model bounds); `fault=1` leaves
out the relu, `fault=2` the last product."""
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
            s = T.alloc_fragment((128, 64), "float32")
            sr = T.alloc_fragment((128, 4, 16), "float32")
            logits = T.alloc_fragment((128, 4), "float32")
            T.clear(s)
            for k in T.serial(64 - (1 if fault == 2 else 0)):
                for n, j in T.Parallel(128, 64):
                    x = s[n, j] + T.Cast("float32", Kv[n, k]) * T.Cast("float32", Q[j, k])
                    bits = (T.reinterpret(T.uint32, x) + T.uint32(0x200)) & T.uint32(0xFFFFFC00)
                    s[n, j] = T.reinterpret(T.float32, bits)
            for n, b, h in T.Parallel(128, 4, 16):
                if fault == 1:
                    sr[n, b, h] = s[n, b * 16 + h] * W[b * 16 + h]
                else:
                    sr[n, b, h] = T.max(s[n, b * 16 + h], 0) * W[b * 16 + h]
            T.reduce_sum(sr, logits, dim=-1, clear=True)
            T.copy(logits, Logits)

    return main


fp8_relu_logits()
