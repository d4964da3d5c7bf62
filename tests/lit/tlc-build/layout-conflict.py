# RUN: tlc-build --target=cuda:sm_80 --verify-diagnostics %s
# RUN: not tlc-build --target=cuda:sm_80 --check %s 2>&1 | FileCheck %s
# Layout inference runs inside tlc-build: two gemms that partition one
# accumulator differently (the default Square policy gives 2x2 warps, FullRow
# 4x1) conflict, and the error points at the second with a note at the first.
import tilelang
import tilelang.language as T


@tilelang.jit
def conflict(block_M=128, block_N=128, block_K=32):
    with T.Kernel(1, threads=128) as bx:
        A = T.alloc_shared((block_M, block_K), T.float16)
        B = T.alloc_shared((block_K, block_N), T.float16)
        C = T.alloc_fragment((block_M, block_N), T.float32)  # expected-note {{is allocated here}}
        # expected-note@+1 {{gave 'C' the layout mma.C · 2×2 warps · 128 regs/thread here}}
        T.gemm(A, B, C)  # expected-warning {{nothing has written yet}}
        # expected-error@+1 {{layout conflict on 'C': 'tile.gemm' needs mma.C · 4×1 warps · 128 regs/thread, but 'tile.gemm' gave it mma.C · 2×2 warps · 128 regs/thread}}
        T.gemm(A, B, C, policy=T.GemmWarpPolicy.FullRow)

# CHECK: layout-conflict.py:19:9: error: layout conflict on 'C'
# CHECK: layout-conflict.py:17:9: note: 'tile.gemm' gave 'C' the layout mma.C · 2×2 warps
