# A T.Parallel that reads or writes a fragment in another thread's layout
# (here a gemm accumulator, transposed) exchanges it through shared memory:
# every thread stores its registers into a row-major tile, the loop reads
# (and writes) the tile at its own coordinates, and a loop that writes the
# fragment loads its registers back. The area is one more shared-memory
# region after the buffers. A whole-fragment T.copy between layouts that
# disagree goes through the same area. tests/bench/CUDA/tlc_run_examples.sh
# runs the kernels on the GPU against the CPU target.
#
# RUN: tlc-build --emit=tile --mlir-print-debuginfo %s > %t.mlir
# RUN: tlc-translate --tile-to-cuda %t.mlir | FileCheck %s
# RUN: tlc-build --target=cpu -o %t.cpu %s | FileCheck %s --check-prefix=CPU
# CPU: wrote {{.*}}transpose_read.so
# CPU: wrote {{.*}}transpose_write.so
# CPU: wrote {{.*}}copy_between_layouts.so

import tilelang
import tilelang.language as T

# CHECK-LABEL: transpose_read_kernel(
# A_shared 4 KiB, B_shared 4 KiB, then the exchange area at 8192.
# CHECK: // T.Parallel  fragment-exchange.py:[[# @LINE + 25]]:{{[0-9]+}}
# CHECK-NEXT: __syncthreads();  // the exchange area is free
# CHECK-NEXT: float *exchanged = reinterpret_cast<float *>(smem + 8192);  // C_local, row-major
# CHECK: exchanged[(x0) * 64 + x1] = C_local[r_{{[0-9]+}}];
# CHECK: __syncthreads();
# CHECK: const float x = exchanged[(i1_{{[0-9]+}}) * 64 + i0_{{[0-9]+}}];
# CHECK-NEXT: D_local[r_{{[0-9]+}}] = x;
# Read only: no load back.
# CHECK-NOT: C_local[r_{{[0-9]+}}] = exchanged
# CHECK: // T.copy


@tilelang.jit(out_idx=[-1])
def transpose_read(M=64, N=64, K=32, dtype=T.float16, accum_dtype=T.float32):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), accum_dtype)):
        with T.Kernel(1, threads=128) as (bx):
            A_shared = T.alloc_shared((M, K), dtype)
            B_shared = T.alloc_shared((K, N), dtype)
            C_local = T.alloc_fragment((M, N), accum_dtype)
            D_local = T.alloc_fragment((M, N), accum_dtype)
            T.copy(A[0, 0], A_shared)
            T.copy(B[0, 0], B_shared)
            T.clear(C_local)
            T.gemm(A_shared, B_shared, C_local)
            for i, j in T.Parallel(M, N):
                D_local[i, j] = C_local[j, i]
            T.copy(D_local, C[0, 0])

    return main


# CHECK-LABEL: transpose_write_kernel(
# CHECK: // T.Parallel  fragment-exchange.py:[[# @LINE + 25]]:{{[0-9]+}}
# CHECK-NEXT: __syncthreads();  // the exchange area is free
# CHECK-NEXT: float *exchanged{{(_[0-9]+)?}} = reinterpret_cast<float *>(smem + 8192);  // C_local, row-major
# CHECK: __syncthreads();
# CHECK: exchanged{{(_[0-9]+)?}}[(i1_{{[0-9]+}}) * 64 + i0_{{[0-9]+}}] =
# The loop wrote C_local: its registers are loaded back.
# CHECK: __syncthreads();
# CHECK: C_local[r_{{[0-9]+}}] = exchanged{{(_[0-9]+)?}}[(x0_{{[0-9]+}}) * 64 + x1_{{[0-9]+}}];


@tilelang.jit(out_idx=[-1])
def transpose_write(M=64, N=64, K=32, dtype=T.float16, accum_dtype=T.float32):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), accum_dtype)):
        with T.Kernel(1, threads=128) as (bx):
            A_shared = T.alloc_shared((M, K), dtype)
            B_shared = T.alloc_shared((K, N), dtype)
            C_local = T.alloc_fragment((M, N), accum_dtype)
            D_local = T.alloc_fragment((M, N), accum_dtype)
            T.copy(A[0, 0], A_shared)
            T.copy(B[0, 0], B_shared)
            T.clear(C_local)
            T.gemm(A_shared, B_shared, C_local)
            for i, j in T.Parallel(M, N):
                D_local[i, j] = i * 0.5 - j
            for i, j in T.Parallel(M, N):
                C_local[j, i] = C_local[j, i] * 2.0 + D_local[i, j]
            T.copy(C_local, C[0, 0])

    return main


# CHECK-LABEL: copy_between_layouts_kernel(
# C1 (2 x 2 warps) is copied into C2, the accumulator of a FullRow gemm
# (4 x 1 warps): through the exchange area, converted to C2's dtype.
# CHECK: // T.copy  fragment-exchange.py:[[# @LINE + 21]]:{{[0-9]+}}
# CHECK-NEXT: __syncthreads();  // the exchange area is free
# CHECK-NEXT: float *exchanged{{(_[0-9]+)?}} = reinterpret_cast<float *>(smem + 8192);  // C1, row-major
# CHECK: exchanged{{(_[0-9]+)?}}[(x0{{(_[0-9]+)?}}) * 64 + x1{{(_[0-9]+)?}}] = C1[r_{{[0-9]+}}];
# CHECK: __syncthreads();
# CHECK: C2[r_{{[0-9]+}}] = exchanged{{(_[0-9]+)?}}[(x0{{(_[0-9]+)?}}) * 64 + x1{{(_[0-9]+)?}}];


@tilelang.jit(out_idx=[-1])
def copy_between_layouts(M=64, N=64, K=32, dtype=T.float16, accum_dtype=T.float32):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), accum_dtype)):
        with T.Kernel(1, threads=128) as (bx):
            A_shared = T.alloc_shared((M, K), dtype)
            B_shared = T.alloc_shared((K, N), dtype)
            C1 = T.alloc_fragment((M, N), accum_dtype)
            C2 = T.alloc_fragment((M, N), accum_dtype)
            T.copy(A[0, 0], A_shared)
            T.copy(B[0, 0], B_shared)
            T.clear(C1)
            T.gemm(A_shared, B_shared, C1)
            T.copy(C1, C2)
            T.gemm(A_shared, B_shared, C2, policy=T.GemmWarpPolicy.FullRow)
            T.copy(C2, C[0, 0])

    return main
