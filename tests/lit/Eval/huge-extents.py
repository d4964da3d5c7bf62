# RUN: tlc-build --verify-diagnostics %s
# RUN: %python -c "import resource, subprocess; subprocess.run(['tlc-build', '--check', '%s'], capture_output=True); print('under a second of CPU:', resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime < 1.0)" | FileCheck %s
# CHECK: under a second of CPU: True
# Bounded analysis of extents past any block (the 7 tlc-fuzz-eval inputs of
# the thirteenth session's H200 run, tests/fuzz/corpus/eval/oom-* and
# timeout-*): each was minutes of enumeration or gigabytes of memory, and
# is now answered at once with the error at its allocation or kernel.
import tilelang
import tilelang.language as T


# T.Fragment(shape, forward_thread_fn=...) over (128, 2^62): the register
# index inference enumerated the fragment (timeout-c14ad...).
@tilelang.jit
def annotated_fragment(heads=128, dim=1 << 62, block_M=128):
    Out: T.Tensor((heads, 64), T.float32)
    with T.Kernel(T.ceildiv(heads, block_M), threads=block_M) as bx:
        # expected-error@+1 {{fragment 'o_acc' of more than 2^63 elements needs more than 72057594037927936 registers per thread over 128 threads; the limit is 255}}
        o_acc = T.alloc_fragment((block_M, dim), T.float32)
        # expected-warning@+1 {{the layout annotated for 'o_acc' is not used: its more than 2^63 elements are more than the 4194304 tlc checks a fragment on}}
        T.annotate_layout({
            o_acc: T.Fragment(o_acc.shape, forward_thread_fn=lambda i, j: i),
        })
        T.clear(o_acc)


# A (128, 2^62) shared tile: its 2^71 bytes wrapped to 0 (no shared memory
# error), and the bank-conflict check enumerated its linear layout
# (timeout-35329..., timeout-6cec9...).
@tilelang.jit
# expected-note@+1 {{in instance wide_shared()}}
def wide_shared(M=1024, block_M=128, dim=1 << 62):
    A: T.Tensor((M, 16), T.float32)
    B: T.Tensor((M,), T.float32)
    # expected-error@+1 {{shared memory usage more than 2^63 bytes exceeds the 227 KiB budget of cuda:sm_90a}}
    with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
        # expected-note@+1 {{'S' uses more than 2^63 bytes}}
        S = T.alloc_shared((block_M, dim), T.float32)
        T.copy(A[bx * block_M, 0], S)
        for i in T.Parallel(block_M):
            B[bx * block_M + i] = S[i, 0]


# A gemm over a (64, 10^12) operand tile: the bank-conflict check planned
# its ldmatrix reads, 10^11 of them (oom-5e1da..., oom-e4456..., oom-fe376...).
@tilelang.jit
# expected-note@+1 {{in instance wide_gemm()}}
def wide_gemm(M=1024, N=1024, K=1024, block_M=128, block_N=10**12, block_K=64):
    A: T.Tensor((M, K), T.float16)
    B: T.Tensor((K, N), T.float16)
    C: T.Tensor((M, N), T.float32)
    # expected-error@+1 {{shared memory usage 250000000032 KiB exceeds the 227 KiB budget of cuda:sm_90a}}
    with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
        # expected-note@+1 {{'A_s' uses 32 KiB (2 pipeline stages x 16 KiB)}}
        A_s = T.alloc_shared((block_M, block_K), T.float16)
        # expected-note@+1 {{'B_s' uses 250000000000 KiB (2 pipeline stages x 125000000000 KiB)}}
        B_s = T.alloc_shared((block_K, block_N), T.float16)
        # expected-error@+1 {{fragment 'acc' of 128000000000000 elements needs 1000000000000 registers per thread over 128 threads; the limit is 255}}
        acc = T.alloc_fragment((block_M, block_N), T.float32)
        T.clear(acc)
        for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
            T.copy(A[by * block_M, k * block_K], A_s)
            T.copy(B[k * block_K, bx * block_N], B_s)
            T.gemm(A_s, B_s, acc)
        T.copy(acc, C[by * block_M, bx * block_N])


# threads=10**12: the wgmma warp partition searched 3 * 10^10 warp counts
# (timeout-05791...).
@tilelang.jit
# expected-note@+1 {{in instance wide_block()}}
def wide_block(M=1024, N=1024, K=1024, block_M=128, block_N=128, block_K=64, threads=10**12):
    A: T.Tensor((M, K), T.float16)
    B: T.Tensor((K, N), T.float16)
    C: T.Tensor((M, N), T.float32)
    # expected-error@+1 {{thread count 1000000000000 exceeds the maximum of 1024 threads per block}}
    with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
        A_s = T.alloc_shared((block_M, block_K), T.float16)
        B_s = T.alloc_shared((block_K, block_N), T.float16)
        acc = T.alloc_fragment((block_M, block_N), T.float32)
        T.clear(acc)
        for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
            T.copy(A[by * block_M, k * block_K], A_s)
            T.copy(B[k * block_K, bx * block_N], B_s)
            T.gemm(A_s, B_s, acc, policy=T.GemmWarpPolicy.FullRow)
        T.copy(acc, C[by * block_M, bx * block_N])


annotated_fragment()
wide_shared()
wide_gemm()
wide_block()
