# RUN: tlc-build --target=cuda:sm_80 --verify-diagnostics %s
# RUN: tlc-build --target=cuda:sm_90a --verify-diagnostics %s
# RUN: tlc-build --target=cuda:sm_80 --emit=hints --format=json %s | FileCheck %s --check-prefix=HINTS
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda %s | FileCheck %s --check-prefix=CUDA
# RUN: tlc-build --target=cpu --check %s 2>&1 | FileCheck %s --check-prefix=CPU --allow-empty
# The bank-conflict degrees against an independent oracle that runs the
# printed exchange code (Inputs/exchange_banks.py) for every thread and
# counts the words per bank with NumPy, on CUDA and on HIP (LDS):
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda %s > %t.cu
# RUN: tlc-build --target=cuda:sm_80 --emit=hints --format=json %s > %t.cu.json
# RUN: %python %S/Inputs/exchange_banks.py %t.cu %t.cu.json 128 cuda | FileCheck %s --check-prefix=ORACLE
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda %s > %t.sm90.cu
# RUN: tlc-build --target=cuda:sm_90a --emit=hints --format=json %s > %t.sm90.json
# RUN: %python %S/Inputs/exchange_banks.py %t.sm90.cu %t.sm90.json 128 cuda | FileCheck %s --check-prefix=ORACLE
# RUN: tlc-build --target=hip:gfx942 --emit=hip %s > %t.hip
# RUN: tlc-build --target=hip:gfx942 --emit=hints --format=json %s > %t.hip.json
# RUN: %python %S/Inputs/exchange_banks.py %t.hip %t.hip.json 128 hip | FileCheck %s --check-prefix=ORACLE-HIP
# RUN: FileCheck %s --check-prefix=HIP < %t.hip.json
# RUN: tlc-build --target=hip:gfx942 --check %s 2>&1 | FileCheck %s --check-prefix=HIP-REMARK
#
# By hand, transpose_read on sm_80 (the printed code): the registers go to
# exchanged[x0 * 64 + x1] with x0 = (tid >> 2) & 7 + ..., x1 = (tid & 3) * 2
# + ...: in a warp 8 rows of 64 floats (256 bytes, the same banks) times 4
# column pairs: 4 banks, 8 words each, 8-way. The loop reads
# exchanged[i1 * 64 + i0]: bank = i0 % 32 = (tid >> 2) & 7 (+ const), 8
# banks, each read at 4 rows i1 = (tid & 3) * 2 (+ const): 4-way. On HIP
# the mfma32 accumulator's lanes 0-31 are 32 rows of one column: 32-way.
# Fragment exchanges: where the CUDA code moves a fragment through shared
# memory because a statement needs its elements in another thread's layout,
# a hint-severity remark at the statement (the editor shows it; the
# --emit=hints JSON carries a fragment-exchange hint). The remark is read
# from the printed code (the CUDA run below shows the same exchanges at
# the same lines); a kernel whose loops keep each thread on its own
# registers gets none. On the CPU target: no remark.
# CPU-NOT: remark
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def transpose_read(M=64, N=64, K=32, dtype=T.float16, accum_dtype=T.float32):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), accum_dtype)):
        with T.Kernel(1, threads=128) as (bx):
            A_shared = T.alloc_shared((M, K), dtype)
            B_shared = T.alloc_shared((K, N), dtype)
            # expected-note@+1 {{this loop reads C_local at elements other threads hold: every thread stores its registers into a row-major shared tile, the loop reads the tile, with block barriers between (CUDA code)}}
            C_local = T.alloc_fragment((M, N), accum_dtype)
            D_local = T.alloc_fragment((M, N), accum_dtype)
            T.copy(A[0, 0], A_shared)
            T.copy(B[0, 0], B_shared)
            T.clear(C_local)
            T.gemm(A_shared, B_shared, C_local)
            # expected-remark@+1 {{C_local goes through shared memory here (fragment exchange, 16384 bytes at byte 8192; stores 8-way bank conflict, loads 4-way bank conflict)}}
            for i, j in T.Parallel(M, N):
                D_local[i, j] = C_local[j, i]
            T.copy(D_local, C[0, 0])

    return main


@tilelang.jit(out_idx=[-1])
def transpose_write(M=64, N=64, K=32, dtype=T.float16, accum_dtype=T.float32):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), accum_dtype)):
        with T.Kernel(1, threads=128) as (bx):
            A_shared = T.alloc_shared((M, K), dtype)
            B_shared = T.alloc_shared((K, N), dtype)
            # expected-note@+1 {{this loop writes C_local at elements other threads hold: every thread stores its registers into a row-major shared tile, the loop works on the tile, and the registers are loaded back after it, with block barriers between (CUDA code)}}
            C_local = T.alloc_fragment((M, N), accum_dtype)
            D_local = T.alloc_fragment((M, N), accum_dtype)
            T.copy(A[0, 0], A_shared)
            T.copy(B[0, 0], B_shared)
            T.clear(C_local)
            T.gemm(A_shared, B_shared, C_local)
            for i, j in T.Parallel(M, N):
                D_local[i, j] = i * 0.5 - j
            # expected-remark@+1 {{C_local goes through shared memory here (fragment exchange, 16384 bytes at byte 8192; stores 8-way bank conflict, loads 8-way bank conflict)}}
            for i, j in T.Parallel(M, N):
                C_local[j, i] = C_local[j, i] * 2.0 + D_local[i, j]
            T.copy(C_local, C[0, 0])

    return main


@tilelang.jit(out_idx=[-1])
def own_registers(M=64, N=64, K=32, dtype=T.float16, accum_dtype=T.float32):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), accum_dtype)):
        with T.Kernel(1, threads=128) as (bx):
            A_shared = T.alloc_shared((M, K), dtype)
            B_shared = T.alloc_shared((K, N), dtype)
            C_local = T.alloc_fragment((M, N), accum_dtype)
            T.copy(A[0, 0], A_shared)
            T.copy(B[0, 0], B_shared)
            T.clear(C_local)
            T.gemm(A_shared, B_shared, C_local)
            for i, j in T.Parallel(M, N):
                C_local[i, j] = C_local[i, j] * 2.0
            T.copy(C_local, C[0, 0])

    return main


transpose_read()
transpose_write()
own_registers()

# HINTS: "kind":"fragment-exchange"
# HINTS-SAME: "detail":"C_local goes through shared memory here (fragment exchange, 16384 bytes at byte 8192; stores 8-way bank conflict, loads 4-way bank conflict)"
# HINTS: "kind":"fragment-exchange"
# HINTS-NOT: "kind":"fragment-exchange"

# CUDA-LABEL: transpose_read_kernel(
# CUDA: // T.Parallel  fragment-exchange-hints.py:55:
# CUDA-NEXT: __syncthreads();  // the exchange area is free
# CUDA-NEXT: reinterpret_cast<float *>(smem + 8192);  // C_local, row-major
# CUDA-LABEL: transpose_write_kernel(
# CUDA: // T.Parallel  fragment-exchange-hints.py:79:
# CUDA-NEXT: __syncthreads();  // the exchange area is free
# CUDA-NEXT: reinterpret_cast<float *>(smem + 8192);  // C_local, row-major
# CUDA: C_local[r_{{[0-9]+}}] = exchanged{{(_[0-9]+)?}}[
# CUDA-LABEL: own_registers_kernel(
# CUDA-NOT: exchange area

# ORACLE: C_local: stores 8-way bank conflict, loads 4-way bank conflict: MATCH
# ORACLE-NEXT: C_local: stores 8-way bank conflict, loads 8-way bank conflict: MATCH
# ORACLE-NOT: MISMATCH
# ORACLE-HIP: C_local: stores 32-way bank conflict, loads conflict-free: MATCH
# ORACLE-HIP-NEXT: C_local: stores 32-way bank conflict, loads 32-way bank conflict: MATCH
# ORACLE-HIP-NOT: MISMATCH

# HIP: "kind":"fragment-exchange"
# HIP-SAME: "detail":"C_local goes through LDS here (fragment exchange, 16384 bytes at byte 8192; stores 32-way bank conflict, loads conflict-free)"
# HIP: "kind":"fragment-exchange"
# HIP-SAME: "detail":"C_local goes through LDS here (fragment exchange, 16384 bytes at byte 8192; stores 32-way bank conflict, loads 32-way bank conflict)"
# HIP-NOT: "kind":"fragment-exchange"

# HIP-REMARK: fragment-exchange-hints.py:55:25: remark: C_local goes through LDS here (fragment exchange, 16384 bytes at byte 8192; stores 32-way bank conflict, loads conflict-free)
# HIP-REMARK: (HIP code)
# HIP-REMARK: fragment-exchange-hints.py:79:25: remark: C_local goes through LDS here
