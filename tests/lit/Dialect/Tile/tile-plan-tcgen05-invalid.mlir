// RUN: tlc-opt --tile-plan-tcgen05=target=cuda:sm_100a --verify-diagnostics --split-input-file %s

// 256 + 256 columns fill the CTA's 512; the third tile does not fit.
tile.func @too_many_columns() {
  tile.kernel (%bx) grid [1] threads [128] {
    %a = tile.alloc : !tile.buffer<[128, 256], f32, shared.tmem>
    %b = tile.alloc : !tile.buffer<[128, 256], f32, shared.tmem>
    // expected-error@+1 {{this tensor memory tile takes 32 columns after 512 others take; a CTA has 512}}
    %c = tile.alloc : !tile.buffer<[128, 32], f32, shared.tmem>
  }
}

// -----

// Tensor memory has 128 lanes.
tile.func @too_many_lanes() {
  tile.kernel (%bx) grid [1] threads [128] {
    // expected-error@+1 {{tensor memory has 128 lanes}}
    %a = tile.alloc : !tile.buffer<[256, 32], f32, shared.tmem>
  }
}

// -----

// An accumulator of 64 rows (M = 64 per CTA) is not generated.
tile.func @m64() {
  tile.kernel (%bx) grid [1] threads [128] {
    %A = tile.alloc : !tile.buffer<[64, 64], f16, shared.dyn>
    %B = tile.alloc : !tile.buffer<[64, 64], f16, shared.dyn>
    %C = tile.alloc : !tile.buffer<[64, 64], f32, shared.tmem>
    // expected-error@+1 {{T.gemm into tensor memory (tcgen05.mma): the accumulator has 64 rows; tlc's tcgen05.mma takes 128 (M = 128 per CTA)}}
    tile.gemm %A, %B, %C : !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, shared.tmem>
  }
}

// -----

// f16 accumulators are not generated.
tile.func @f16_acc() {
  tile.kernel (%bx) grid [1] threads [128] {
    %A = tile.alloc : !tile.buffer<[128, 64], f16, shared.dyn>
    %B = tile.alloc : !tile.buffer<[64, 64], f16, shared.dyn>
    %C = tile.alloc : !tile.buffer<[128, 64], f16, shared.tmem>
    // expected-error@+1 {{f16/bf16 operands, or e4m3/e5m2/e2m1 ones, with an f32 accumulator only}}
    tile.gemm %A, %B, %C : !tile.buffer<[128, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[128, 64], f16, shared.tmem>
  }
}

// -----

// Each stage of a [stages, lanes, columns] tile starts on a 32-bit column:
// three f16 elements (48 bits) per stage do not fill whole columns.
tile.func @stage_columns() {
  tile.kernel (%bx) grid [1] threads [128] {
    // expected-error@+1 {{each stage of a tensor memory tile of stages takes whole 32-bit columns: 3 elements of 16 bits do not}}
    %a = tile.alloc : !tile.buffer<[2, 128, 3], f16, shared.tmem>
  }
}

// -----

// fp4 operands: tcgen05.mma reads 4-bit types K-major only (the
// instruction descriptor's transpose bits are valid for 8- and 16-bit
// types); B stored [K, N] is MN-major.
tile.func @fp4_mn_major() {
  tile.kernel (%bx) grid [1] threads [128] {
    %A = tile.alloc : !tile.buffer<[128, 128], f4E2M1FN, shared.dyn>
    %B = tile.alloc : !tile.buffer<[128, 64], f4E2M1FN, shared.dyn>
    %C = tile.alloc : !tile.buffer<[128, 64], f32, shared.tmem>
    // expected-error@+1 {{T.gemm into tensor memory (tcgen05.mma): fp4 (e2m1) operands must be K-major (A [M, K], B [N, K]): tcgen05.mma reads 4-bit types K-major only}}
    tile.gemm %A, %B, %C : !tile.buffer<[128, 128], f4E2M1FN, shared.dyn>, !tile.buffer<[128, 64], f4E2M1FN, shared.dyn>, !tile.buffer<[128, 64], f32, shared.tmem>
  }
}

// -----

// Block-scaled MMAs: MXFP8 (e4m3 / e5m2) operands only.
tile.func @blockscaled_bf16() {
  tile.kernel (%bx) grid [1] threads [128] {
    %A = tile.alloc : !tile.buffer<[128, 64], bf16, shared.dyn>
    %B = tile.alloc : !tile.buffer<[64, 128], bf16, shared.dyn>
    %C = tile.alloc : !tile.buffer<[128, 128], f32, shared.tmem>
    %SFA = tile.alloc : !tile.buffer<[128, 4], ui8, shared.tmem>
    %SFB = tile.alloc : !tile.buffer<[128, 4], ui8, shared.tmem>
    // expected-error@+1 {{T.tcgen05_gemm_blockscaled (tcgen05.mma .kind::mxf8f6f4.block_scale): e4m3/e5m2 operands (MXFP8) with an f32 accumulator only}}
    tile.intrinsic "T.tcgen05_gemm_blockscaled"(%A, %B, %C, %SFA, %SFB) {params = ["A", "B", "C", "SFA_tmem", "SFB_tmem"]} : (!tile.buffer<[128, 64], bf16, shared.dyn>, !tile.buffer<[64, 128], bf16, shared.dyn>, !tile.buffer<[128, 128], f32, shared.tmem>, !tile.buffer<[128, 4], ui8, shared.tmem>, !tile.buffer<[128, 4], ui8, shared.tmem>) -> ()
  }
}

// -----

// The scale-factor selection by k_start and granularities (another
// TileLang release's form) is not generated.
tile.func @blockscaled_k_start(%k: index) {
  tile.kernel (%bx) grid [1] threads [128] {
    %A = tile.alloc : !tile.buffer<[128, 128], f8E4M3FN, shared.dyn>
    %B = tile.alloc : !tile.buffer<[128, 128], f8E4M3FN, shared.dyn>
    %C = tile.alloc : !tile.buffer<[128, 128], f32, shared.tmem>
    %SFA = tile.alloc : !tile.buffer<[128, 4], ui8, shared.tmem>
    %SFB = tile.alloc : !tile.buffer<[128, 4], ui8, shared.tmem>
    // expected-error@+1 {{T.tcgen05_gemm_blockscaled (tcgen05.mma .kind::mxf8f6f4.block_scale): k_start= is not generated (sf_a_id / sf_b_id select the scale factors)}}
    tile.intrinsic "T.tcgen05_gemm_blockscaled"(%A, %B, %C, %SFA, %SFB, %k) {params = ["A", "B", "C", "SFA_tmem", "SFB_tmem", "k_start"]} : (!tile.buffer<[128, 128], f8E4M3FN, shared.dyn>, !tile.buffer<[128, 128], f8E4M3FN, shared.dyn>, !tile.buffer<[128, 128], f32, shared.tmem>, !tile.buffer<[128, 4], ui8, shared.tmem>, !tile.buffer<[128, 4], ui8, shared.tmem>, index) -> ()
  }
}

// -----

// N = 256 columns of B need 8 columns of scale factors (4 per 128 rows).
tile.func @blockscaled_sfb_columns() {
  tile.kernel (%bx) grid [1] threads [128] {
    %A = tile.alloc : !tile.buffer<[128, 128], f8E4M3FN, shared.dyn>
    %B = tile.alloc : !tile.buffer<[128, 256], f8E4M3FN, shared.dyn>
    %C = tile.alloc : !tile.buffer<[128, 256], f32, shared.tmem>
    %SFA = tile.alloc : !tile.buffer<[128, 4], ui8, shared.tmem>
    %SFB = tile.alloc : !tile.buffer<[128, 4], ui8, shared.tmem>
    // expected-error@+1 {{T.tcgen05_gemm_blockscaled (tcgen05.mma .kind::mxf8f6f4.block_scale): SFB_tmem must be a whole [128, cols >= 8] uint8 tensor memory tile (four factors a column for each 128 of the 256 rows)}}
    tile.intrinsic "T.tcgen05_gemm_blockscaled"(%A, %B, %C, %SFA, %SFB) {params = ["A", "B", "C", "SFA_tmem", "SFB_tmem"]} : (!tile.buffer<[128, 128], f8E4M3FN, shared.dyn>, !tile.buffer<[128, 256], f8E4M3FN, shared.dyn>, !tile.buffer<[128, 256], f32, shared.tmem>, !tile.buffer<[128, 4], ui8, shared.tmem>, !tile.buffer<[128, 4], ui8, shared.tmem>) -> ()
  }
}
