// RUN: tlc-opt --tile-plan-shared-storage=target=cuda:sm_80 %s | FileCheck %s
// RUN: tlc-opt --tile-plan-shared-storage=target=hip:gfx942 %s | FileCheck %s --check-prefix=HIP
// RUN: tlc-opt --tile-plan-shared-storage=target=cpu %s | FileCheck %s --check-prefix=NONE
// RUN: tlc-opt --tile-plan-shared-storage %s | FileCheck %s --check-prefix=NONE
// In the GPU pipeline, on examples/gemm.py's operands (A 128 x 32, B 32 x
// 128, f16): the row swizzle of ldmatrix reads on sm_80 (4 and 16 chunks
// a row), the descriptor panels of tile-plan-wgmma's tile.swizzle on
// sm_90a (64- and 128-byte panel rows), the MFMA LDS swizzles on HIP (B,
// N-contiguous, is read as 4 x 16 blocks of 8-byte chunks: runs of 16 by k
// % 4 put a block's 4 rows in different banks).
// RUN: tlc-build --emit=lowered --target=cuda:sm_80 %S/../../../../examples/gemm.py | FileCheck %s --check-prefix=GEMM80
// RUN: tlc-build --emit=lowered --target=cuda:sm_90a %S/../../../../examples/gemm.py | FileCheck %s --check-prefix=GEMM90
// RUN: tlc-build --emit=lowered --target=hip:gfx942 %S/../../../../examples/gemm.py | FileCheck %s --check-prefix=GEMMHIP
// GEMM80: module attributes {{{.*}}tile.storage_planned
// GEMM80: tile.storage = {chunks = 4 : i64, kind = "row_swizzle"}} : !tile.buffer<[128, 32], f16, shared.dyn>
// GEMM80: tile.storage = {chunks = 16 : i64, kind = "row_swizzle"}} : !tile.buffer<[32, 128], f16, shared.dyn>
// GEMM90: tile.storage = {chunks = 4 : i64, kind = "panels"}, tile.swizzle = 64 : i64} : !tile.buffer<[128, 32], f16, shared.dyn>
// GEMM90: tile.storage = {chunks = 8 : i64, kind = "panels"}, tile.swizzle = 128 : i64} : !tile.buffer<[32, 128], f16, shared.dyn>
// GEMMHIP: tile.storage = {kind = "lds_swizzle", max_phase = 8 : i64, per_phase = 2 : i64, vec = 4 : i64}} : !tile.buffer<[128, 32], f16, shared.dyn>
// GEMMHIP: tile.storage = {kind = "lds_swizzle", max_phase = 4 : i64, per_phase = 1 : i64, vec = 16 : i64}} : !tile.buffer<[32, 128], f16, shared.dyn>
// GEMMHIP-NOT: tile.storage = {

// Without a GPU target nothing is recorded.
// NONE-NOT: tile.storage

// A shared gemm operand of 16-bit elements is row-swizzled (8 chunks of 16
// bytes a row); an f32 tile only copies use stays row-major; a kernel that
// tile-plan-shared-memory did not place is left alone.
// CHECK: module attributes {tile.storage_planned}
// CHECK-LABEL: tile.func @gemm_operands
// CHECK: tile.alloc {tile.offset = 0 : i64, tile.storage = {chunks = 8 : i64, kind = "row_swizzle"}} : !tile.buffer<[64, 64], f16, shared.dyn>
// CHECK: tile.alloc {tile.offset = 8192 : i64, tile.storage = {chunks = 8 : i64, kind = "row_swizzle"}} : !tile.buffer<[64, 64], f16, shared.dyn>
// CHECK: tile.alloc {tile.offset = 16384 : i64} : !tile.buffer<[64, 64], f32, shared.dyn>
// CHECK-LABEL: tile.func @not_placed
// CHECK-NOT: tile.storage =
// On HIP the same without an MFMA accumulator layout to choose an LDS
// swizzle for (no layout inference here): the row swizzle.
// HIP: module attributes {tile.storage_planned}
// HIP-LABEL: tile.func @gemm_operands
// HIP: tile.storage = {chunks = 8 : i64, kind = "row_swizzle"}
tile.func @gemm_operands(%A: !tile.buffer<[64, 64], f16, global>, %C: !tile.buffer<[64, 64], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] attributes {tile.shared_bytes = 32768 : i64} {
    %a = tile.alloc {tile.offset = 0 : i64} : !tile.buffer<[64, 64], f16, shared.dyn>
    %b = tile.alloc {tile.offset = 8192 : i64} : !tile.buffer<[64, 64], f16, shared.dyn>
    %s = tile.alloc {tile.offset = 16384 : i64} : !tile.buffer<[64, 64], f32, shared.dyn>
    %c = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    tile.copy %A to %a : !tile.buffer<[64, 64], f16, global> to !tile.buffer<[64, 64], f16, shared.dyn>
    tile.copy %A to %b : !tile.buffer<[64, 64], f16, global> to !tile.buffer<[64, 64], f16, shared.dyn>
    tile.gemm %a, %b, %c : !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    tile.copy %c to %s : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, shared.dyn>
    tile.copy %s to %C : !tile.buffer<[64, 64], f32, shared.dyn> to !tile.buffer<[64, 64], f32, global>
  }
}

tile.func @not_placed(%A: !tile.buffer<[64, 64], f16, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %a = tile.alloc : !tile.buffer<[64, 64], f16, shared.dyn>
    %b = tile.alloc : !tile.buffer<[64, 64], f16, shared.dyn>
    %c = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    tile.copy %A to %a : !tile.buffer<[64, 64], f16, global> to !tile.buffer<[64, 64], f16, shared.dyn>
    tile.gemm %a, %b, %c : !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
  }
}
