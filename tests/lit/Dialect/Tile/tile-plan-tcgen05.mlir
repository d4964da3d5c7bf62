// RUN: tlc-opt --tile-plan-tcgen05=target=cuda:sm_100a %s | FileCheck %s
// RUN: tlc-opt --tile-plan-tcgen05=target=cuda:sm_90a %s | FileCheck %s --check-prefix=SM90
// RUN: tlc-opt --tile-plan-tcgen05 %s | FileCheck %s --check-prefix=SM90

// gemm_umma's shape: C = A B^T into an f32 [128, 256] tensor memory tile
// (256 columns); A [128, 64] and B [256, 64] bf16 have 128-byte rows (the
// 128B swizzle); clear_accum = (k == 0) folds into the first MMA.
// CHECK-LABEL: tile.func @umma
// CHECK: tile.kernel {{.*}} attributes {tile.tmem_alloc_cols = 256 : i64}
// CHECK: tile.alloc {tile.align = 1024 : i64, tile.swizzle = 128 : i64} : !tile.buffer<[128, 64], bf16, shared.dyn>
// CHECK: tile.alloc {tile.align = 1024 : i64, tile.swizzle = 128 : i64} : !tile.buffer<[256, 64], bf16, shared.dyn>
// CHECK: tile.alloc {tile.tmem_col = 0 : i64, tile.tmem_cols = 256 : i64} : !tile.buffer<[128, 256], f32, shared.tmem>
// CHECK: tile.clear {{.*}} {tile.tcgen05_clear}
// CHECK: tile.gemm {{.*}} {tile.clear_if, tile.instr = "tcgen05", transpose_b}
// SM90-LABEL: tile.func @umma
// SM90-NOT: tile.tmem
// SM90-NOT: tcgen05
tile.func @umma(%k: index) {
  tile.kernel (%bx) grid [1] threads [128] {
    %A = tile.alloc : !tile.buffer<[128, 64], bf16, shared.dyn>
    %B = tile.alloc : !tile.buffer<[256, 64], bf16, shared.dyn>
    %C = tile.alloc : !tile.buffer<[128, 256], f32, shared.tmem>
    %c0 = arith.constant 0 : index
    %first = arith.cmpi eq, %k, %c0 : index
    tile.if %first {
      tile.clear %C : !tile.buffer<[128, 256], f32, shared.tmem>
    }
    tile.gemm %A, %B, %C {transpose_b} : !tile.buffer<[128, 64], bf16, shared.dyn>, !tile.buffer<[256, 64], bf16, shared.dyn>, !tile.buffer<[128, 256], f32, shared.tmem>
  }
}

// Two tiles one after the other: f32 [128, 128] takes 128 columns, bf16
// [128, 64] two elements per 32-bit column, 32 columns from 128; 160
// columns round up to the power of two 256. A in tensor memory (the TS
// form) takes no swizzle; B [64, 64] f16 MN-major (not transposed) does.
// CHECK-LABEL: tile.func @two_tiles
// CHECK: tile.kernel {{.*}} attributes {tile.tmem_alloc_cols = 256 : i64}
// CHECK: tile.alloc {tile.tmem_col = 0 : i64, tile.tmem_cols = 128 : i64} : !tile.buffer<[128, 128], f32, shared.tmem>
// CHECK: tile.alloc {tile.tmem_col = 128 : i64, tile.tmem_cols = 32 : i64} : !tile.buffer<[128, 64], f16, shared.tmem>
// CHECK: tile.alloc {tile.align = 1024 : i64, tile.swizzle = 128 : i64} : !tile.buffer<[64, 128], f16, shared.dyn>
// CHECK: tile.gemm {{.*}} {tile.instr = "tcgen05"}
tile.func @two_tiles() {
  tile.kernel (%bx) grid [1] threads [128] {
    %D = tile.alloc : !tile.buffer<[128, 128], f32, shared.tmem>
    %P = tile.alloc : !tile.buffer<[128, 64], f16, shared.tmem>
    %B = tile.alloc : !tile.buffer<[64, 128], f16, shared.dyn>
    tile.gemm %P, %B, %D : !tile.buffer<[128, 64], f16, shared.tmem>, !tile.buffer<[64, 128], f16, shared.dyn>, !tile.buffer<[128, 128], f32, shared.tmem>
  }
}

// A small tile still takes the 32 columns tcgen05.alloc allocates at least.
// CHECK-LABEL: tile.func @small
// CHECK: tile.kernel {{.*}} attributes {tile.tmem_alloc_cols = 32 : i64}
// CHECK: tile.alloc {tile.tmem_col = 0 : i64, tile.tmem_cols = 16 : i64} : !tile.buffer<[128, 16], f32, shared.tmem>
tile.func @small() {
  tile.kernel (%bx) grid [1] threads [128] {
    %S = tile.alloc : !tile.buffer<[128, 16], f32, shared.tmem>
  }
}

// Two stages of an f32 [128, 128] accumulator ([stages, lanes, columns],
// the clc persistent GEMM's C_tmem): the lanes are the second-to-last
// dimension, the stages side by side, 2 x 128 = 256 columns; a gemm into
// one stage (`C_tmem[w & 1, :, :]`) is a tcgen05.mma.
// CHECK-LABEL: tile.func @stages
// CHECK: tile.kernel {{.*}} attributes {tile.tmem_alloc_cols = 256 : i64}
// CHECK: tile.alloc {tile.tmem_col = 0 : i64, tile.tmem_cols = 256 : i64} : !tile.buffer<[2, 128, 128], f32, shared.tmem>
// CHECK: tile.gemm {{.*}} {tile.instr = "tcgen05", transpose_b}
tile.func @stages(%w: index) {
  tile.kernel (%bx) grid [1] threads [128] {
    %A = tile.alloc : !tile.buffer<[128, 64], bf16, shared.dyn>
    %B = tile.alloc : !tile.buffer<[128, 64], bf16, shared.dyn>
    %C = tile.alloc : !tile.buffer<[2, 128, 128], f32, shared.tmem>
    %S = tile.region %C[%w, 0, 0] : !tile.buffer<[2, 128, 128], f32, shared.tmem> to !tile.buffer<[1, 128, 128], f32, shared.tmem>
    tile.gemm %A, %B, %S {transpose_b} : !tile.buffer<[128, 64], bf16, shared.dyn>, !tile.buffer<[128, 64], bf16, shared.dyn>, !tile.buffer<[1, 128, 128], f32, shared.tmem>
  }
}

// A block-scaled MXFP8 MMA (T.tcgen05_gemm_blockscaled): its e4m3 A and B
// get the swizzled panels (B [K, N] with 256-byte rows: 128-byte panels),
// and the uint8 scale-factor tiles one 32-bit column an element (four
// factors of a row in a column), as tcgen05.cp .32x128b.warpx4 fills them:
// C 0..255, SFA 256..259, SFB 260..267 (268 columns: 512 allocated).
// CHECK-LABEL: tile.func @blockscaled
// CHECK: tile.kernel {{.*}} attributes {tile.tmem_alloc_cols = 512 : i64}
// CHECK: tile.alloc {tile.align = 1024 : i64, tile.swizzle = 128 : i64} : !tile.buffer<[128, 128], f8E4M3FN, shared.dyn>
// CHECK: tile.alloc {tile.align = 1024 : i64, tile.swizzle = 128 : i64} : !tile.buffer<[128, 256], f8E4M3FN, shared.dyn>
// CHECK: tile.alloc {tile.tmem_col = 0 : i64, tile.tmem_cols = 256 : i64} : !tile.buffer<[128, 256], f32, shared.tmem>
// CHECK: tile.alloc {tile.tmem_col = 256 : i64, tile.tmem_cols = 4 : i64} : !tile.buffer<[128, 4], ui8, shared.tmem>
// CHECK: tile.alloc {tile.tmem_col = 260 : i64, tile.tmem_cols = 8 : i64} : !tile.buffer<[128, 8], ui8, shared.tmem>
// A uint8 tile no scale-factor operation uses packs four a column.
// CHECK: tile.alloc {tile.tmem_col = 268 : i64, tile.tmem_cols = 2 : i64} : !tile.buffer<[128, 8], ui8, shared.tmem>
// SM90-LABEL: tile.func @blockscaled
// SM90-NOT: tile.tmem_col
// SM90-NOT: tile.swizzle
tile.func @blockscaled() {
  tile.kernel (%bx) grid [1] threads [128] {
    %A = tile.alloc : !tile.buffer<[128, 128], f8E4M3FN, shared.dyn>
    %B = tile.alloc : !tile.buffer<[128, 256], f8E4M3FN, shared.dyn>
    %SA = tile.alloc : !tile.buffer<[128, 4], ui8, shared.dyn>
    %SB = tile.alloc : !tile.buffer<[256, 4], ui8, shared.dyn>
    %C = tile.alloc : !tile.buffer<[128, 256], f32, shared.tmem>
    %SFA = tile.alloc : !tile.buffer<[128, 4], ui8, shared.tmem>
    %SFB = tile.alloc : !tile.buffer<[128, 8], ui8, shared.tmem>
    %other = tile.alloc : !tile.buffer<[128, 8], ui8, shared.tmem>
    tile.intrinsic "T.tcgen05_cp_warpx4"(%SA, %SFA) {params = ["smem_src", "tmem_dst"]} : (!tile.buffer<[128, 4], ui8, shared.dyn>, !tile.buffer<[128, 4], ui8, shared.tmem>) -> ()
    tile.intrinsic "T.tcgen05_cp_warpx4"(%SB, %SFB) {params = ["smem_src", "tmem_dst"]} : (!tile.buffer<[256, 4], ui8, shared.dyn>, !tile.buffer<[128, 8], ui8, shared.tmem>) -> ()
    tile.intrinsic "T.tcgen05_gemm_blockscaled"(%A, %B, %C, %SFA, %SFB) {params = ["A", "B", "C", "SFA_tmem", "SFB_tmem"]} : (!tile.buffer<[128, 128], f8E4M3FN, shared.dyn>, !tile.buffer<[128, 256], f8E4M3FN, shared.dyn>, !tile.buffer<[128, 256], f32, shared.tmem>, !tile.buffer<[128, 4], ui8, shared.tmem>, !tile.buffer<[128, 8], ui8, shared.tmem>) -> ()
  }
}
