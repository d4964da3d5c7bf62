// RUN: tlc-opt --tile-plan-wgmma=target=cuda:sm_90a %s | FileCheck %s
// RUN: tlc-opt --tile-plan-wgmma=target=sm_80 %s | FileCheck %s --check-prefix=SM80
// RUN: tlc-opt --tile-plan-wgmma=target=cuda:sm_80,sm_90a %s | FileCheck %s --check-prefix=SM80
// RUN: tlc-opt --tile-plan-wgmma %s | FileCheck %s --check-prefix=SM80
// RUN: tlc-opt --tile-plan-wgmma=target=cuda:sm_90a --tile-plan-shared-memory %s | FileCheck %s --check-prefix=ALIGNED

// NN f16 GEMM, 128 threads (one warpgroup): A [128, 32] (64-byte rows: 64B
// swizzle), B [32, 128] (256-byte rows: two panels of the 128B swizzle).
// CHECK-LABEL: tile.func @nn
// CHECK: tile.alloc {tile.align = 1024 : i64, tile.swizzle = 64 : i64} : !tile.buffer<[128, 32], f16, shared.dyn>
// CHECK: tile.alloc {tile.align = 1024 : i64, tile.swizzle = 128 : i64} : !tile.buffer<[32, 128], f16, shared.dyn>
// CHECK: tile.gemm {{.*}} {tile.instr = "wgmma"}
// SM80-LABEL: tile.func @nn
// SM80-NOT: tile.instr
// SM80-NOT: tile.swizzle
// ALIGNED-LABEL: tile.func @nn
// ALIGNED: tile.alloc {tile.align = 1024 : i64, tile.offset = 0 : i64, tile.swizzle = 64 : i64}
// ALIGNED: tile.alloc {tile.align = 1024 : i64, tile.offset = 8192 : i64, tile.swizzle = 128 : i64}
tile.func @nn(%A: !tile.buffer<[256, 256], f16, global>, %B: !tile.buffer<[256, 256], f16, global>) {
  tile.kernel (%bx, %by) grid [2, 2] threads [128] {
    %A_s = tile.alloc : !tile.buffer<[128, 32], f16, shared.dyn>
    %B_s = tile.alloc : !tile.buffer<[32, 128], f16, shared.dyn>
    %acc = tile.alloc : !tile.buffer<[128, 128], f32, local.fragment>
    tile.gemm %A_s, %B_s, %acc : !tile.buffer<[128, 32], f16, shared.dyn>, !tile.buffer<[32, 128], f16, shared.dyn>, !tile.buffer<[128, 128], f32, local.fragment>
  }
}

// mma.sync stays where wgmma does not apply: 64 threads (no whole
// warpgroup), M = 32 (not a multiple of 64), an f16 accumulator of bf16
// operands, and a tile no swizzle covers (rows of 72 elements); each gemm
// records why (tile.wgmma_why, which T.wgmma_gemm's refusal gives).
// CHECK-LABEL: tile.func @mma_sync
// CHECK-NOT: tile.instr
// CHECK-NOT: tile.swizzle
// CHECK: tile.wgmma_why = "shapes: M = 64, N = 64, K = 32 on 64 threads is no wgmma gemm
// CHECK: tile.wgmma_why = "shapes: M = 32, N = 64, K = 32 on 128 threads is no wgmma gemm
// CHECK: tile.wgmma_why = "dtypes: wgmma takes
// CHECK: tile.wgmma_why = "operand layouts: operand B is not
// CHECK-LABEL: tile.func @f16_accumulator
tile.func @mma_sync(%A: !tile.buffer<[256, 256], f16, global>) {
  tile.kernel (%bx) grid [1] threads [64] {
    %A_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %B_s = tile.alloc : !tile.buffer<[32, 64], f16, shared.dyn>
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    tile.gemm %A_s, %B_s, %acc : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[32, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
  }
  tile.kernel (%bx) grid [1] threads [128] {
    %A_s = tile.alloc : !tile.buffer<[32, 32], f16, shared.dyn>
    %B_s = tile.alloc : !tile.buffer<[32, 64], f16, shared.dyn>
    %acc = tile.alloc : !tile.buffer<[32, 64], f32, local.fragment>
    tile.gemm %A_s, %B_s, %acc : !tile.buffer<[32, 32], f16, shared.dyn>, !tile.buffer<[32, 64], f16, shared.dyn>, !tile.buffer<[32, 64], f32, local.fragment>
  }
  tile.kernel (%bx) grid [1] threads [128] {
    %A_s = tile.alloc : !tile.buffer<[64, 32], bf16, shared.dyn>
    %B_s = tile.alloc : !tile.buffer<[32, 64], bf16, shared.dyn>
    %acc = tile.alloc : !tile.buffer<[64, 64], f16, local.fragment>
    tile.gemm %A_s, %B_s, %acc : !tile.buffer<[64, 32], bf16, shared.dyn>, !tile.buffer<[32, 64], bf16, shared.dyn>, !tile.buffer<[64, 64], f16, local.fragment>
  }
  tile.kernel (%bx) grid [1] threads [128] {
    %A_s = tile.alloc : !tile.buffer<[64, 16], f16, shared.dyn>
    %B_s = tile.alloc : !tile.buffer<[16, 72], f16, shared.dyn>
    %acc = tile.alloc : !tile.buffer<[64, 72], f32, local.fragment>
    tile.gemm %A_s, %B_s, %acc : !tile.buffer<[64, 16], f16, shared.dyn>, !tile.buffer<[16, 72], f16, shared.dyn>, !tile.buffer<[64, 72], f32, local.fragment>
  }
}

// f16 x f16 with an f16 accumulator: wgmma's .f16.f16.f16.
// CHECK: tile.gemm {{.*}}tile.instr = "wgmma"
tile.func @f16_accumulator(%A: !tile.buffer<[256, 256], f16, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %A_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %B_s = tile.alloc : !tile.buffer<[32, 64], f16, shared.dyn>
    %acc = tile.alloc : !tile.buffer<[64, 64], f16, local.fragment>
    tile.gemm %A_s, %B_s, %acc : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[32, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f16, local.fragment>
  }
}

// A buffer also read by a gemm that keeps mma.sync (the first gemm alone
// would take wgmma, but B_s is shared with an M = 16 gemm): both keep
// mma.sync, since the buffer has one layout; so does a kernel in which any
// gemm keeps mma.sync (the second kernel: separate buffers, the second
// gemm's register A is stored [K, M], which wgmma cannot take).
// CHECK-LABEL: tile.func @shared_with_mma
// CHECK-NOT: tile.instr
tile.func @shared_with_mma(%A: !tile.buffer<[256, 256], f16, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %A_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %A2_s = tile.alloc : !tile.buffer<[16, 32], f16, shared.dyn>
    %B_s = tile.alloc : !tile.buffer<[32, 64], f16, shared.dyn>
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    %acc2 = tile.alloc : !tile.buffer<[16, 64], f32, local.fragment>
    tile.gemm %A_s, %B_s, %acc : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[32, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    tile.gemm %A2_s, %B_s, %acc2 : !tile.buffer<[16, 32], f16, shared.dyn>, !tile.buffer<[32, 64], f16, shared.dyn>, !tile.buffer<[16, 64], f32, local.fragment>
  }
  tile.kernel (%bx) grid [1] threads [128] {
    %A_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %B_s = tile.alloc : !tile.buffer<[32, 64], f16, shared.dyn>
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    %P = tile.alloc : !tile.buffer<[64, 64], f16, local.fragment>
    %V_s = tile.alloc : !tile.buffer<[64, 64], f16, shared.dyn>
    %acc2 = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    tile.gemm %A_s, %B_s, %acc : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[32, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    tile.gemm %P, %V_s, %acc2 {transpose_a} : !tile.buffer<[64, 64], f16, local.fragment>, !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
  }
}

// Attention: S = Q K^T (shared operands, K stored [N, K]) and O += P V with
// P a 16-bit fragment (the register-A form): both take wgmma; P gets no
// swizzle (it is not in shared memory), V is N-major (256-byte rows: 128B
// panels). A bf16 P works too.
// CHECK-LABEL: tile.func @attention
// CHECK: tile.alloc {tile.align = 1024 : i64, tile.swizzle = 128 : i64} : !tile.buffer<[128, 64], f16, shared.dyn>
// CHECK: tile.alloc {tile.align = 1024 : i64, tile.swizzle = 128 : i64} : !tile.buffer<[64, 64], f16, shared.dyn>
// CHECK: tile.alloc : !tile.buffer<[128, 64], f16, local.fragment>
// CHECK: tile.alloc {tile.align = 1024 : i64, tile.swizzle = 128 : i64} : !tile.buffer<[64, 128], f16, shared.dyn>
// CHECK: tile.gemm {{.*}} {tile.instr = "wgmma", transpose_b}
// CHECK: tile.gemm {{.*}} {tile.instr = "wgmma"}
// CHECK: tile.gemm {{.*}} {tile.instr = "wgmma"} : !tile.buffer<[64, 32], bf16, local.fragment>
tile.func @attention(%A: !tile.buffer<[256, 256], f16, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %Q_s = tile.alloc : !tile.buffer<[128, 64], f16, shared.dyn>
    %K_s = tile.alloc : !tile.buffer<[64, 64], f16, shared.dyn>
    %S = tile.alloc : !tile.buffer<[128, 64], f32, local.fragment>
    %P = tile.alloc : !tile.buffer<[128, 64], f16, local.fragment>
    %V_s = tile.alloc : !tile.buffer<[64, 128], f16, shared.dyn>
    %O = tile.alloc : !tile.buffer<[128, 128], f32, local.fragment>
    tile.gemm %Q_s, %K_s, %S {transpose_b} : !tile.buffer<[128, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[128, 64], f32, local.fragment>
    tile.copy %S to %P : !tile.buffer<[128, 64], f32, local.fragment> to !tile.buffer<[128, 64], f16, local.fragment>
    tile.gemm %P, %V_s, %O : !tile.buffer<[128, 64], f16, local.fragment>, !tile.buffer<[64, 128], f16, shared.dyn>, !tile.buffer<[128, 128], f32, local.fragment>
  }
  tile.kernel (%bx) grid [1] threads [128] {
    %P = tile.alloc : !tile.buffer<[64, 32], bf16, local.fragment>
    %V_s = tile.alloc : !tile.buffer<[32, 64], bf16, shared.dyn>
    %O = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    tile.gemm %P, %V_s, %O : !tile.buffer<[64, 32], bf16, local.fragment>, !tile.buffer<[32, 64], bf16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
  }
}

// fp8 e4m3, K-major A and B (transpose_b): 128-byte rows of 128 elements.
// CHECK-LABEL: tile.func @fp8
// CHECK: tile.alloc {tile.align = 1024 : i64, tile.swizzle = 128 : i64} : !tile.buffer<[64, 128], f8E4M3FN, shared.dyn>
// CHECK: tile.gemm {{.*}} {tile.instr = "wgmma", transpose_b}
tile.func @fp8(%A: !tile.buffer<[256, 256], f16, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %A_s = tile.alloc : !tile.buffer<[64, 128], f8E4M3FN, shared.dyn>
    %B_s = tile.alloc : !tile.buffer<[64, 128], f8E4M3FN, shared.dyn>
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    tile.gemm %A_s, %B_s, %acc {transpose_b} : !tile.buffer<[64, 128], f8E4M3FN, shared.dyn>, !tile.buffer<[64, 128], f8E4M3FN, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
  }
}
