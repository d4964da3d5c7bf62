# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# The CPU target (its __threadfence_block is a compiler fence: a block's
# threads run in turn on one host thread) against NumPy: B is A reversed
# within each block of 1024, Pos each thread's sum of positive parts of its
# four reversed elements; the sim device (sm_80, sm_90a, gfx942) against it.
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 2 --save %t/out > /dev/null
# RUN: %python -c "import numpy as np; d='%t/out/'; a=np.load(d+'inputs/A.npy'); b=np.load(d+'B.npy'); p=np.load(d+'Pos.npy'); r=a.reshape(-1, 1024)[:, ::-1].reshape(-1); print(bool(np.array_equal(b, r)), bool(np.allclose(p, np.maximum(r, 0).astype(np.float64).reshape(-1, 4).sum(1), rtol=1e-6, atol=1e-6)))" | FileCheck %s --check-prefix=NUMPY
# NUMPY: True True
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/sm80 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm80 --device sim --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sm90 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm90 --device sim --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# RUN: %if hip-toolchain && sim-compiler %{ tlc-build --target=hip:gfx942 -o %t/hip %s > /dev/null %}
# RUN: %if hip-toolchain && sim-compiler %{ tlc-run %t/hip --device sim --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# SIM: verify B: PASS
# SIM: verify Pos: PASS
# RUN: tlc-build --target=hip:gfx90a -o %t/gfx90a %s | FileCheck %s --check-prefix=BUILT
# BUILT: wrote {{.*}}reverse_blocks.hsaco
# L: raw TIR without T.Kernel: T.launch_thread, T.alloc_buffer/T.decl_buffer(data=),
# T.tvm_storage_sync, T.evaluate(T.call_extern), T.Select. Shape: module prim_func + compile.
import tilelang
import tilelang.language as T

N = 1 << 18
THREADS = 256
PER_BLOCK = THREADS * 4


@T.prim_func
def reverse_blocks(A: T.Tensor((N,), T.float32), B: T.Tensor((N,), T.float32), Pos: T.Tensor((N // 4,), T.float32)):
    bx = T.launch_thread("blockIdx.x", N // PER_BLOCK)
    tx = T.launch_thread("threadIdx.x", THREADS)
    stage = T.alloc_buffer((PER_BLOCK,), T.float32, scope="shared")
    # the same shared bytes seen as float4-sized rows
    rows = T.decl_buffer((THREADS, 4), T.float32, data=stage.data, scope="shared")
    acc = T.decl_buffer((1,), T.float32, scope="local")
    for v in T.vectorized(4):
        rows[tx, v] = A[bx * PER_BLOCK + tx * 4 + v]
    T.tvm_storage_sync("shared")
    acc[0] = T.float32(0)
    for v in T.serial(4):
        x = stage[PER_BLOCK - 1 - (tx * 4 + v)]
        acc[0] = acc[0] + T.Select(x > T.float32(0), x, T.float32(0))
        B[bx * PER_BLOCK + tx * 4 + v] = x
    T.evaluate(T.call_extern("void", "__threadfence_block"))
    # per-thread sum of the positive parts of its reversed float4
    Pos[bx * THREADS + tx] = acc[0]


kernel = tilelang.compile(reverse_blocks, out_idx=[1, 2], target="cuda")

# CHECK: "name":"A","kind":"tensor","shape":[262144],"dtype":"float32","scope":"global","layout":null
# CHECK: "name":"stage","kind":"buffer","shape":[1024],"dtype":"float32","scope":"shared","layout":"linear"
# CHECK: "name":"acc","kind":"buffer","shape":[1],"dtype":"float32","scope":"local","layout":null
