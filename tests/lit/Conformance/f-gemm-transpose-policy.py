# No error or warning; the fragment-exchange remarks describe the CUDA code.
# RUN: tlc-build --check %s 2>&1 | not grep -E "(error|warning):"
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# The accumulator (FullCol) and the next gemm's register A (FullRow) keep
# their layouts; T.copy(S_local, S_cast) goes through shared memory.
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda %s 2>&1 | FileCheck %s --check-prefix=SM80
# SM80: float *exchanged = reinterpret_cast<float *>(smem + {{[0-9]+}});  // S_local, row-major
# SM80: S_cast[{{.*}}] = tlc::cuda::toHalf(exchanged[
# On CDNA the area would pass the 64 KiB of LDS after the buffers at these
# tiles; it takes the bytes of E_shared, dead at the exchange
# (Target/HIP/lds-area-reuse.test runs it on sim).
# RUN: tlc-build --target=hip:gfx942 --emit=hip %s 2>/dev/null | FileCheck %s --check-prefix=GFX942
# GFX942: half *E_shared = reinterpret_cast<tlc::hip::half *>(smem + [[E:[0-9]+]]);
# GFX942: float *exchanged = reinterpret_cast<float *>(smem + [[E]]);  // S_local, row-major
# Group F: T.gemm operand forms. A^T B^T with transpose_A/transpose_B,
# policy=T.GemmWarpPolicy.FullCol, clear_accum on the first K step, and a
# register-A ("rs") second GEMM with policy=FullRow chaining D = (A^T B^T) E.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def chained_tn(M, N, K, block_M=64, block_N=128, block_K=64, dtype=T.float16):
    accum_dtype = T.float32

    @T.prim_func
    def main(
        A: T.Tensor((K, M), dtype),
        B: T.Tensor((N, K), dtype),
        E: T.Tensor((N, N), dtype),
        D: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(T.ceildiv(M, block_M), threads=256) as bx:
            A_shared = T.alloc_shared((block_K, block_M), dtype)
            B_shared = T.alloc_shared((block_N, block_K), dtype)
            E_shared = T.alloc_shared((block_N, block_N), dtype)
            S_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            S_cast = T.alloc_fragment((block_M, block_N), dtype)
            D_local = T.alloc_fragment((block_M, block_N), accum_dtype)

            T.clear(D_local)
            for n in T.serial(T.ceildiv(N, block_N)):
                for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                    T.copy(A[k * block_K, bx * block_M], A_shared)
                    T.copy(B[n * block_N, k * block_K], B_shared)
                    T.gemm(A_shared, B_shared, S_local, transpose_A=True, transpose_B=True,
                           policy=T.GemmWarpPolicy.FullCol, clear_accum=k == 0)
                T.copy(S_local, S_cast)
                T.copy(E[n * block_N, 0], E_shared)
                T.gemm(S_cast, E_shared, D_local, policy=T.GemmWarpPolicy.FullRow)
            T.copy(D_local, D[bx * block_M, 0])

    return main


kernel = chained_tn(2048, 128, 1024)

# CHECK: "name":"A","kind":"tensor","shape":[1024,2048],"dtype":"float16","scope":"global","layout":null
# CHECK: "name":"bx","kind":"kernel","shape":[32],{{.*}}"detail":"256 threads"
# CHECK: "name":"A_shared","kind":"buffer","shape":[64,64],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"B_shared","kind":"buffer","shape":[128,64],"dtype":"float16","scope":"shared.dyn","layout":"swizzle 128B"
# CHECK: "name":"S_local","kind":"buffer","shape":[64,128],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C · 4×2 warps
# CHECK: "name":"S_cast","kind":"buffer","shape":[64,128],"dtype":"float16","scope":"local.fragment","layout":"wgmma.A · 4×2 warps · 64 regs/thread · rep 2"
# CHECK: "name":"D_local","kind":"buffer","shape":[64,128],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C · 4×2 warps · 32 regs/thread"
