# RUN: tlc-build --target=hip:gfx942 --check %s 2>&1 | FileCheck %s --implicit-check-not="on B_s" --implicit-check-not="on A_s (ds_read_b64)"
# RUN: tlc-build --target=hip:gfx90a --emit=hints --format=json %s | FileCheck %s --check-prefix=HINTS
# RUN: tlc-build --target=hip:gfx942 --emit=hip %s | FileCheck %s --check-prefix=CODE
# LDS bank conflicts of the HIP code (CDNA: 32 banks of 4 bytes, 64-lane
# wavefronts served in phases of 128 bytes). Each degree below is worked
# out by hand from the emitted code (CODE lines) and AMD's phase rules:
#
# acc_unpadded: each wavefront's 32 x 32 tile of the accumulator is one
# v_mfma_f32_32x32x8f16 tile, which gives lane l row l % 32, columns
# 8 j + 4 (l / 32) .. + 3, stored as one ds_write_b128 (4 floats) each.
# ds_write_b128 is served 8 consecutive lanes at a time: lanes
# 0-7 write rows 0-7 of one 16-byte column; rows of 256 bytes put all
# eight in banks 0-3: 8-way. Rows padded by 4 floats (272 bytes) move each
# row 4 banks on: conflict-free. With rows of 72 floats (acc_padded72,
# 288 bytes) rows r and r + 4 meet again: 2-way, and the copy back to
# global reads 16-byte chunks q = tid: ds_read_b128's group 0-3 + 20-23
# reads row 0 chunks 0-3 (words 0-15) and row 1 chunks 4-7 (words
# 88-103, banks 24-31 and 0-7): 2-way. acc_padded (rows of 68 floats)
# writes conflict-free, but the same read meets row 1's words 84-99 (banks
# 20-31, 0-3): 2-way; only unpadded rows (row 1 at words 80-95) read
# conflict-free, so no padding removes both.
#
# Both read A_s (64 x 32 f16) for the MFMA as one ds_read_b64 per lane (4
# f16 of one row, K-contiguous): lane l reads row l % 32 at k = 8 kk + 4
# (l / 32). ds_read_b64 is served 16 lanes at a time: 16 rows of 64 bytes.
# The HIP target stores MFMA operand tiles in the swizzle chosen for these
# reads (tile::planLdsSwizzles): A_s in runs of 4 f16 (8 bytes) XORed by
# (row / 2) % 8, so row r's run starts at byte 64 (r % 2) + 8 ((k / 4) ^
# (r / 2) % 8) of a 128-byte line: 16 rows on 16 distinct 8-byte bank pairs,
# conflict-free (the 16-byte chunk swizzle, chunk ^ (row / 2) % 4, gave 8
# placements for 16 rows: 2-way). B_s (32 x 64) is K-outer: each row of 16
# lanes reads a 4 x 16 block (4 k rows of 16 n, 32 bytes each) as one
# 8-byte chunk a lane (a DPP transpose follows). Row-major, the 4 rows of
# 128 bytes put their chunks in the same 8 banks: 4-way (the analysis once
# counted element reads here, conflict-free). B_s is stored in runs of 16
# f16 (32 bytes) XORed by k % 4: the 4 rows land in 4 different 32-byte
# bank groups, conflict-free.
#
# transpose: T.Parallel's flat partition gives 32 consecutive lanes
# consecutive j of one i; A_s[j, i] with rows of 256 bytes puts them all in
# one bank: 32-way (a half wavefront is one phase of ds_read_b32); a row
# of 65 floats spreads them.
import tilelang
import tilelang.language as T


@tilelang.jit
def acc_unpadded(M=256, N=256):
    @T.prim_func
    def main(A: T.Tensor((M, 32), T.float16), B: T.Tensor((32, N), T.float16),
             C: T.Tensor((M, N), T.float32)):
        with T.Kernel(N // 64, M // 64, threads=256) as (bx, by):
            A_s = T.alloc_shared((64, 32), T.float16)
            B_s = T.alloc_shared((32, 64), T.float16)
            acc = T.alloc_fragment((64, 64), T.float32)
            C_s = T.alloc_shared((64, 64), T.float32)
            T.copy(A[by * 64, 0], A_s)
            T.copy(B[0, bx * 64], B_s)
            T.gemm(A_s, B_s, acc, clear_accum=True)
            T.copy(acc, C_s)
            T.copy(C_s, C[by * 64, bx * 64])
    return main


@tilelang.jit
def acc_padded(M=256, N=256):
    @T.prim_func
    def main(A: T.Tensor((M, 32), T.float16), B: T.Tensor((32, N), T.float16),
             C: T.Tensor((M, N), T.float32)):
        with T.Kernel(N // 64, M // 64, threads=256) as (bx, by):
            A_s = T.alloc_shared((64, 32), T.float16)
            B_s = T.alloc_shared((32, 64), T.float16)
            acc = T.alloc_fragment((64, 64), T.float32)
            C_s = T.alloc_shared((64, 68), T.float32)
            T.copy(A[by * 64, 0], A_s)
            T.copy(B[0, bx * 64], B_s)
            T.gemm(A_s, B_s, acc, clear_accum=True)
            T.copy(acc, C_s[:, 0:64])
            T.copy(C_s[:, 0:64], C[by * 64, bx * 64])
    return main


@tilelang.jit
def acc_padded72(M=256, N=256):
    @T.prim_func
    def main(A: T.Tensor((M, 32), T.float16), B: T.Tensor((32, N), T.float16),
             C: T.Tensor((M, N), T.float32)):
        with T.Kernel(N // 64, M // 64, threads=256) as (bx, by):
            A_s = T.alloc_shared((64, 32), T.float16)
            B_s = T.alloc_shared((32, 64), T.float16)
            acc = T.alloc_fragment((64, 64), T.float32)
            C_s = T.alloc_shared((64, 72), T.float32)
            T.copy(A[by * 64, 0], A_s)
            T.copy(B[0, bx * 64], B_s)
            T.gemm(A_s, B_s, acc, clear_accum=True)
            T.copy(acc, C_s[:, 0:64])
            T.copy(C_s[:, 0:64], C[by * 64, bx * 64])
    return main


@tilelang.jit
def transpose(N=256, pad=0):
    @T.prim_func
    def main(A: T.Tensor((N, N), T.float32), B: T.Tensor((N, N), T.float32)):
        with T.Kernel(N // 64, N // 64, threads=128) as (bx, by):
            A_s = T.alloc_shared((64, 64 + pad), T.float32)
            for i, j in T.Parallel(64, 64):
                A_s[i, j] = A[by * 64 + i, bx * 64 + j]
            for i, j in T.Parallel(64, 64):
                B[bx * 64 + i, by * 64 + j] = A_s[j, i]
    return main


acc_unpadded()
acc_padded()
acc_padded72()
transpose()
transpose(pad=1)

# CHECK-NOT: on A_s (ds_read_b64)
# CHECK: 8-way bank conflict on C_s (ds_write_b128)
# CHECK: note: padding each row of C_s by 4 elements (allocate (64, 68) and use C_s[:, 0:64]) makes this access conflict-free
# CHECK-NOT: ds_write_b128
# CHECK: 2-way bank conflict on C_s (ds_read_b128)
# CHECK: 2-way bank conflict on C_s (ds_write_b128)
# CHECK: 2-way bank conflict on C_s (ds_read_b128)
# CHECK: note: no row padding of up to 32 bytes removes it
# CHECK: 32-way bank conflict on A_s (ds_read_b32)
# CHECK: note: padding each row of A_s by 1 element (allocate (64, 65) and use A_s[:, 0:64]) makes this access conflict-free
# CHECK-NOT: remark

# HINTS: "kernel":"acc_unpadded"{{.*}}"kind":"bank-conflict"{{.*}}"detail":"8-way bank conflict on C_s (ds_write_b128)"
# HINTS: "kernel":"transpose","instance":"transpose()"{{.*}}"kind":"bank-conflict"{{.*}}"detail":"32-way bank conflict on A_s (ds_read_b32)"

# The accesses the degrees above were worked out from.
# CODE: const int wave = tid / 64, lane = tid % 64;
# CODE: tlc::hip::copyVector<8>(aLanes[mi], &A_s[tlc::hip::xorSwizzledIndex<32, 4, 2, 8>((wm * 32 + mi * 32 + lane % 32), (kk * 8 + 4 * (lane / 32)))]);  // ds_read_b64
# CODE: tlc::hip::readDppTransposed(bLanes[ni] + 4 * r, &B_s[tlc::hip::xorSwizzledIndex<64, 16, 1, 4>((kk * 8 + 4 * (lane / 32) + r * 4 + lane % 4), (wn * 32 + ni * 32 + 16 * (lane % 32 / 16) + 4 * (lane % 16 / 4)))], lane);  // ds_read_b64, DPP transpose
# CODE: tlc::hip::copyVector<16>(&C_s[(i0_2) * 64 + i1_2], &acc[r_1]);
