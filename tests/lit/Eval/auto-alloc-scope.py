# T.auto_alloc(shape, dtype): the scope is the one TileLang's
# InferMemoryScope pass gives the buffer from its uses (the rules of its
# test_tilelang_transform_infer_memory_scope.py, which these kernels
# follow): gemm accumulator -> local.fragment, gemm operands and pipelined
# copies from global memory -> shared.dyn, cumsum operands -> shared.dyn,
# consistent one-to-one T.Parallel accesses -> local.fragment, sequential
# accesses -> local, thread-indexed or thread-conditional accesses,
# transposed or broadcast parallel accesses -> shared.dyn ("shared" for
# bool), an unused buffer -> local. The hints show the inferred scope.
# RUN: tlc-build --check %s 2>&1 | FileCheck %s --allow-empty --check-prefix=DIAG
# DIAG-NOT: {{(error|warning):}}
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a --kernel gemm_auto %s | FileCheck %s --check-prefix=CUDA
# CUDA: extern __shared__
# CUDA-NOT: float C_buf_shared
import tilelang
import tilelang.language as T

M = N = K = 256


@T.prim_func
def gemm_auto(A: T.Tensor((M, K), "float16"), B: T.Tensor((N, K), "float16"),
              C: T.Tensor((M, N), "float16")):
    with T.Kernel(N // 128, M // 128, threads=128) as (bx, by):
        # CHECK: "name":"A_buf","kind":"buffer","shape":[128,64],"dtype":"float16","scope":"shared.dyn"
        A_buf = T.auto_alloc((128, 64), "float16")
        # CHECK: "name":"B_buf","kind":"buffer","shape":[128,64],"dtype":"float16","scope":"shared.dyn"
        B_buf = T.auto_alloc((128, 64), "float16")
        # CHECK: "name":"C_buf","kind":"buffer","shape":[128,128],"dtype":"float16","scope":"local.fragment"
        C_buf = T.auto_alloc((128, 128), "float16")
        T.clear(C_buf)
        for k in T.Pipelined(K // 64, num_stages=3):
            T.copy(A[by * 128, k * 64], A_buf)
            T.copy(B[bx * 128, k * 64], B_buf)
            T.gemm(A_buf, B_buf, C_buf, transpose_B=True)
        T.copy(C_buf, C[by * 128, bx * 128])


@T.prim_func
def staged(A: T.Tensor((M, K), "float16"), C: T.Tensor((M, K), "float16")):
    with T.Kernel(M // 128, threads=128) as bx:
        # CHECK: "name":"stage","kind":"buffer","shape":[128,64],"dtype":"float16","scope":"shared.dyn"
        stage = T.auto_alloc((128, 64), "float16")
        for k in T.Pipelined(K // 64, num_stages=2):
            T.copy(A[bx * 128, k * 64], stage)
        T.copy(stage, C[bx * 128, 0])


@T.prim_func
def scanned(A: T.Tensor((128, 128), "float32"), B: T.Tensor((128, 128), "float32")):
    with T.Kernel(1, threads=128):
        # CHECK: "name":"src","kind":"buffer","shape":[128,128],"dtype":"float32","scope":"shared.dyn"
        src = T.auto_alloc((128, 128), "float32")
        # CHECK: "name":"dst","kind":"buffer","shape":[128,128],"dtype":"float32","scope":"shared.dyn"
        dst = T.auto_alloc((128, 128), "float32")
        T.copy(A, src)
        T.cumsum(src, dst)
        T.copy(dst, B)


@T.prim_func
def elementwise(A: T.Tensor((128, 128), "float32"), B: T.Tensor((128, 128), "float32")):
    with T.Kernel(1, threads=128):
        # CHECK: "name":"tmp_ew","kind":"buffer","shape":[128,128],"dtype":"float32","scope":"local.fragment"
        tmp_ew = T.auto_alloc((128, 128), "float32")
        for i, j in T.Parallel(128, 128):
            tmp_ew[i, j] = A[i, j] + 1.0
        for i, j in T.Parallel(128, 128):
            B[i, j] = tmp_ew[i, j]


@T.prim_func
def transposed(A: T.Tensor((128, 128), "float32"), B: T.Tensor((128, 128), "float32")):
    with T.Kernel(1, threads=128):
        # CHECK: "name":"tmp_tr","kind":"buffer","shape":[128,128],"dtype":"float32","scope":"shared.dyn"
        tmp_tr = T.auto_alloc((128, 128), "float32")
        for i, j in T.Parallel(128, 128):
            tmp_tr[i, j] = A[i, j]
        for i, j in T.Parallel(128, 128):
            B[j, i] = tmp_tr[j, i]


@T.prim_func
def broadcast(A: T.Tensor((128,), "float32"), B: T.Tensor((128, 128), "float32")):
    with T.Kernel(1, threads=128):
        # CHECK: "name":"tmp_bc","kind":"buffer","shape":[128],"dtype":"float32","scope":"shared.dyn"
        tmp_bc = T.auto_alloc((128,), "float32")
        for i in T.Parallel(128):
            tmp_bc[i] = A[i]
        for i, j in T.Parallel(128, 128):
            B[i, j] = tmp_bc[i]


@T.prim_func
def sequential(A: T.Tensor((128,), "float32"), B: T.Tensor((128,), "float32")):
    with T.Kernel(1, threads=128):
        # CHECK: "name":"tmp_seq","kind":"buffer","shape":[128],"dtype":"float32","scope":"local"
        tmp_seq = T.auto_alloc((128,), "float32")
        for i in T.serial(128):
            tmp_seq[i] = A[i] * 2.0
        for i in T.serial(128):
            B[i] = tmp_seq[i]


@T.prim_func
def thread_indexed(A: T.Tensor((16,), "float32"), B: T.Tensor((16,), "float32")):
    with T.Kernel(1, threads=16):
        # CHECK: "name":"tmp_tx","kind":"buffer","shape":[16],"dtype":"float32","scope":"shared.dyn"
        tmp_tx = T.auto_alloc((16,), "float32")
        tx = T.get_thread_binding()
        tmp_tx[tx] = A[tx]
        for i in T.serial(16):
            B[i] = tmp_tx[i]


@T.prim_func
def thread_conditional(A: T.Tensor((16,), "float32"), B: T.Tensor((16,), "float32")):
    with T.Kernel(1, threads=16):
        # CHECK: "name":"tmp_if","kind":"buffer","shape":[16],"dtype":"float32","scope":"shared.dyn"
        tmp_if = T.auto_alloc((16,), "float32")
        tx = T.get_thread_binding()
        if tx == 0:
            for i in T.serial(16):
                tmp_if[i] = A[i]
        for i in T.serial(16):
            B[i] = tmp_if[i]


@T.prim_func
def dead(A: T.Tensor((128,), "float32")):
    with T.Kernel(1, threads=128):
        # CHECK: "name":"_tmp","kind":"buffer","shape":[128],"dtype":"float32","scope":"local"
        _tmp = T.auto_alloc((128,), "float32")
        for i in T.Parallel(128):
            A[i] = A[i] + 1.0


@T.prim_func
def boolean(A: T.Tensor((128, 128), "bool"), B: T.Tensor((128, 128), "bool")):
    with T.Kernel(1, threads=128):
        # CHECK: "name":"tmp_b","kind":"buffer","shape":[128,128],"dtype":"bool","scope":"shared"
        tmp_b = T.auto_alloc((128, 128), "bool")
        for i, j in T.Parallel(128, 128):
            tmp_b[i, j] = A[i, j]
        for i, j in T.Parallel(128, 128):
            B[j, i] = tmp_b[j, i]
