# Is the fp8 GEMM's error at large K the tensor cores' accumulation or a bug?
# Runs the fp8 T.gemm at K = 512, 4096, 16384 (sm_90a: wgmma; with the
# persistent and warp-specialised passes off) twice each, against a float64
# reference, next to torch._scaled_mm with and without use_fast_accum.
# Run with python/ on PYTHONPATH and TLC_BUILD / TLC_CUDA_RUNTIME set.
import os, sys, torch
import tilelang
import tilelang.language as T

def make(M, N, K, pass_configs, target):
    @tilelang.jit(out_idx=[2], target=target, pass_configs=pass_configs)
    def k(block_M=128, block_N=128, block_K=128, stages=3, threads=128):
        @T.prim_func
        def main(A: T.Tensor((M, K), T.float8_e4m3fn), B: T.Tensor((N, K), T.float8_e4m3fn),
                 C: T.Tensor((M, N), T.float32)):
            with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
                A_s = T.alloc_shared((block_M, block_K), T.float8_e4m3fn)
                B_s = T.alloc_shared((block_N, block_K), T.float8_e4m3fn)
                C_l = T.alloc_fragment((block_M, block_N), T.float32)
                T.clear(C_l)
                for kk in T.Pipelined(T.ceildiv(K, block_K), num_stages=stages):
                    T.copy(A[by * block_M, kk * block_K], A_s)
                    T.copy(B[bx * block_N, kk * block_K], B_s)
                    T.gemm(A_s, B_s, C_l, transpose_B=True)
                T.copy(C_l, C[by * block_M, bx * block_N])
        return main
    return k()

torch.manual_seed(0)
for K in (512, 4096, 16384):
    M = N = 2048
    a = torch.randn(M, K, device="cuda").to(torch.float8_e4m3fn)
    b = torch.randn(N, K, device="cuda").to(torch.float8_e4m3fn)
    ref = a.double() @ b.double().T
    for name, pc, tgt in (("sm90a", {}, "cuda"), ("sm90a-nopersist", {"tlc.persistent": False}, "cuda"),
                          ("sm90a-nows", {"tl.disable_warp_specialized": True}, "cuda"),
                          ("sm80", {}, "cuda -arch=sm_80")):
        try:
            kern = make(M, N, K, pc, tgt)
            c1 = kern(a, b); c2 = kern(a, b); torch.cuda.synchronize()
            err = (c1.double() - ref).abs()
            print(f"K={K:6} {name:16} max|err|={err.max().item():.4g} mean|err|={err.mean().item():.3g} "
                  f"rel={(err.norm()/ref.norm()).item():.3g} deterministic={torch.equal(c1, c2)}", flush=True)
        except Exception as e:
            print(f"K={K} {name}: {type(e).__name__}: {str(e)[:300]}", flush=True)
    one = torch.ones(1, device="cuda")
    for fast in (False, True):
        c = torch._scaled_mm(a, b.T, one, one, out_dtype=torch.float32, use_fast_accum=fast)
        err = (c.double() - ref).abs()
        print(f"K={K:6} scaled_mm fast={fast!s:5}   max|err|={err.max().item():.4g} mean|err|={err.mean().item():.3g} "
              f"rel={(err.norm()/ref.norm()).item():.3g}", flush=True)
