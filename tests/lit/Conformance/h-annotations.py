# RUN: tlc-build --check %s 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=error: --implicit-check-not=warning:
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# H: T.annotate_l2_hit_ratio, T.annotate_safe_value, T.annotate_min_blocks_per_sm,
# T.annotate_restrict_buffers, T.use_swizzle. Shape: eager T.const, T.empty + in-place.
import tilelang
import tilelang.language as T


@tilelang.jit
def shifted_stencil(A, shift=3, pad=0.0, block_M=64, block_N=128):
    M, N = T.const("M, N")
    A: T.Tensor((M, N), T.float16)
    B = T.empty((M, N), T.float16)
    with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
        T.use_swizzle(panel_size=8, order="row")
        T.annotate_l2_hit_ratio({A: 0.75})
        T.annotate_safe_value({A: pad})
        T.annotate_min_blocks_per_sm(2)
        window = T.alloc_shared((block_M, block_N), T.float16)
        out = T.alloc_fragment((block_M, block_N), T.float32)
        for i, j in T.Parallel(block_M, block_N):
            # rows above the matrix read the safe value instead of faulting
            window[i, j] = A[by * block_M + i - shift, bx * block_N + j]
        for i, j in T.Parallel(block_M, block_N):
            out[i, j] = T.cast(window[i, j], T.float32) * 0.5 + T.cast(A[by * block_M + i, bx * block_N + j], T.float32) * 0.5
        T.copy(out, B[by * block_M, bx * block_N])
    return B


@tilelang.jit
def axpy_inplace(X, Y, alpha=2.0, block=1024):
    N = T.const("N")
    X: T.Tensor((N,), T.float32)
    Y: T.Tensor((N,), T.float32)
    # X and Y may be overlapping views of one tensor: keep them non-restrict
    T.annotate_restrict_buffers(X, Y)
    with T.Kernel(T.ceildiv(N, block), threads=256) as bx:
        y = T.alloc_fragment((block,), T.float32)
        T.copy(Y[bx * block], y)
        for i in T.Parallel(block):
            y[i] += alpha * X[bx * block + i]
        T.copy(y, Y[bx * block])


stencil = shifted_stencil.compile(M=4096, N=4096)
axpy = axpy_inplace.compile(N=1 << 20, alpha=0.5)

# CHECK: "name":"A","kind":"tensor","shape":[4096,4096],"dtype":"float16","scope":"global","layout":null
# CHECK: "name":"window","kind":"buffer","shape":[64,128],"dtype":"float16","scope":"shared.dyn","layout":"linear"
# CHECK: "name":"out","kind":"buffer","shape":[64,128],"dtype":"float32","scope":"local.fragment","layout":"parallel · 64 regs/thread"
# CHECK: "name":"Y","kind":"tensor","shape":[1048576],"dtype":"float32","scope":"global","layout":null
# CHECK: "name":"y","kind":"buffer","shape":[1024],"dtype":"float32","scope":"local.fragment","layout":"parallel · 4 regs/thread"

# The element-wise shared accesses of T.Parallel (one element per lane at the
# loop's thread partition):
# DIAG: 25:25: remark: 2-way bank conflict on window (2-byte ld.shared)
