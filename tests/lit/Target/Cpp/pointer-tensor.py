# T.make_tensor / T.Tensor.from_ptr over `T.ptr` parameters, with extents
# from integer parameters (TileLang's language/test_tilelang_language_ptr
# pattern): the manifest describes each pointer as the tensor its view
# makes (shape [m, k] from the parameters m and k, which are also `param`
# symbols the launch's grid and shapes read), so tlc-run fills and passes
# the tensors. The CPU target against NumPy at ragged sizes; the CUDA code
# views the addresses.
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: FileCheck %s --check-prefix=MANIFEST < %t/art/matmul_ptr.json
# RUN: tlc-run %t/art -D m=100 -D n=72 -D k=40 --save %t/out
# RUN: %python -c "import numpy as np; d='%t/out/matmul_ptr/'; a=np.load(d+'inputs/a_ptr.npy').astype(np.float64); b=np.load(d+'inputs/b_ptr.npy').astype(np.float64); c=np.load(d+'c_ptr.npy'); print(c.shape, bool(np.abs(c - a @ b.T).max() < 1e-3))" | FileCheck %s
# RUN: %python -c "import numpy as np; d='%t/out/scale_ptr/'; x=np.load(d+'inputs/x_ptr.npy'); y=np.load(d+'y_ptr.npy'); print(y.shape, bool((y == x * 2 + 1).all()))" | FileCheck %s --check-prefix=SCALE
# CHECK: (100, 72) True
# SCALE: (100, 40) True
# MANIFEST: "kind": "tensor",
# MANIFEST-NEXT: "name": "a_ptr",
# MANIFEST-NEXT: "pointer": true,
# MANIFEST-NEXT: "role": "in",
# MANIFEST-NEXT: "shape": [
# MANIFEST-NEXT: "m",
# MANIFEST-NEXT: "k"
# MANIFEST: "name": "c_ptr",
# MANIFEST-NEXT: "pointer": true,
# MANIFEST-NEXT: "role": "out",
# MANIFEST: "symbols": [
# MANIFEST-NEXT: {
# MANIFEST-NEXT: "kind": "param",
# MANIFEST-NEXT: "name": "m"
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a --no-source-lines %s | FileCheck %s --check-prefix=CUDA
# CUDA-LABEL: matmul_ptr_kernel(
# CUDA-SAME: int64_t a_ptr, {{.*}}, int32_t m_1, int32_t n_1, int32_t k_1, long long m, long long k, long long n)
# CUDA: half *__restrict__ A = reinterpret_cast<tlc::cuda::half *>(a_ptr);

import tilelang
import tilelang.language as T


def matmul_ptr(block_M=64, block_N=64, block_K=32, dtype="float16", accum_dtype="float"):

    @T.prim_func
    def main(a_ptr: T.ptr, b_ptr: T.ptr, c_ptr: T.ptr, m: T.int32, n: T.int32, k: T.int32):
        A = T.Tensor.from_ptr(a_ptr, (m, k), dtype)
        B = T.Tensor.from_ptr(b_ptr, (n, k), dtype)
        C = T.Tensor.from_ptr(c_ptr, (m, n), accum_dtype)
        with T.Kernel(T.ceildiv(n, block_N), T.ceildiv(m, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_N, block_K), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.clear(C_local)
            for ko in T.Pipelined(T.ceildiv(k, block_K), num_stages=2):
                T.copy(A[by * block_M, ko * block_K], A_shared)
                T.copy(B[bx * block_N, ko * block_K], B_shared)
                T.gemm(A_shared, B_shared, C_local, transpose_B=True)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main


def scale_ptr(block=32):

    @T.prim_func
    def main(x_ptr: T.ptr, y_ptr: T.ptr, m: T.int32, k: T.int32):
        X = T.make_tensor(x_ptr, (m, k), "float32")
        Y = T.make_tensor(y_ptr, (m, k), "float32")
        with T.Kernel(T.ceildiv(m, block), threads=128) as bx:
            for i, j in T.Parallel(block, 64):
                if j < k:
                    Y[bx * block + i, j] = X[bx * block + i, j] * 2 + 1

    return main


matmul_ptr_kernel = tilelang.compile(matmul_ptr(), target="cuda")
scale_ptr_kernel = tilelang.compile(scale_ptr(), target="cuda")
