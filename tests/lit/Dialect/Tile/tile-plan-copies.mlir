// RUN: tlc-opt --tile-plan-copies=target=cuda:sm_80 --split-input-file %s | FileCheck %s
// RUN: tlc-opt --tile-plan-copies=target=hip:gfx942 --split-input-file %s | FileCheck %s --check-prefix=HIP
// RUN: tlc-opt --tile-plan-copies=target=cpu --split-input-file %s | FileCheck %s --check-prefix=NONE
// RUN: tlc-opt --tile-plan-copies --split-input-file %s | FileCheck %s --check-prefix=NONE
// In the GPU pipeline (last, after tile-legalize-bounds): the GEMM
// example's producers are cp.async on sm_80; on gfx942 its operand tiles in
// LDS are XOR-swizzled in 8-byte runs, so A's 16-byte chunks are stored
// whole with their runs permuted (tile.xor_runs), read through buffer
// loads (tile.zero_fill).
// RUN: tlc-build --emit=lowered --target=cuda:sm_80 %examples/gemm.py | FileCheck %s --check-prefix=GEMM80
// RUN: tlc-build --emit=lowered --target=hip:gfx942 %examples/gemm.py | FileCheck %s --check-prefix=GEMMHIP
// GEMM80: tile.copy {{.*}}tile.instr = "cp.async", tile.prefetch = 0 : i64, tile.vec = 8 : i64, tile.zero_fill}
// GEMM80: tile.copy {{.*}}tile.instr = "cp.async", tile.prefetch = 1 : i64, tile.vec = 8 : i64, tile.zero_fill}
// GEMMHIP: tile.copy {{.*}}tile.instr = "vector", tile.prefetch = 0 : i64, tile.vec = 8 : i64, tile.xor_runs = 8 : i64, tile.zero_fill}
// GEMMHIP: tile.copy {{.*}}tile.instr = "vector", tile.prefetch = 1 : i64, tile.vec = 8 : i64, tile.zero_fill}

// Without a GPU target nothing is chosen.
// NONE-NOT: tile.instr

// 16-byte chunks: 8 f16 elements, 4 f32 elements. A plain copy into shared
// memory is a vector load and store on both targets (no cp.async outside a
// pipeline); nothing zero-fills it on CUDA, while HIP reads a global tensor
// of 256 KiB through a buffer resource (zero out of range). The copy back
// to global memory: the destination is no source to fill.
// CHECK-LABEL: tile.func @plain
// CHECK: tile.copy {{.*}} {tile.instr = "vector", tile.vec = 8 : i64} : !tile.buffer<[64, 32], f16, global> to
// CHECK: tile.copy {{.*}} {tile.instr = "vector", tile.vec = 4 : i64} : !tile.buffer<[64, 32], f32, shared.dyn> to
// HIP-LABEL: tile.func @plain
// HIP: tile.copy {{.*}} {tile.instr = "vector", tile.vec = 8 : i64, tile.zero_fill} : !tile.buffer<[64, 32], f16, global> to
// HIP: tile.copy {{.*}} {tile.instr = "vector", tile.vec = 4 : i64} : !tile.buffer<[64, 32], f32, shared.dyn> to
tile.func @plain(%A: !tile.buffer<[256, 512], f16, global>, %C: !tile.buffer<[256, 512], f32, global>) {
  tile.kernel (%bx, %by) grid [4, 8] threads [128] {
    %c0 = arith.constant 0 : index
    %S = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %F = tile.alloc : !tile.buffer<[64, 32], f32, shared.dyn>
    %At = tile.region %A[%c0, %c0] : !tile.buffer<[256, 512], f16, global> to !tile.buffer<[64, 32], f16, global>
    tile.copy %At to %S : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
    %Ct = tile.region %C[%c0, %c0] : !tile.buffer<[256, 512], f32, global> to !tile.buffer<[64, 32], f32, global>
    tile.copy %F to %Ct : !tile.buffer<[64, 32], f32, shared.dyn> to !tile.buffer<[64, 32], f32, global>
  }
}

// -----

// The producers of a multi-buffered loop are cp.async on CUDA, which
// zero-fills a chunk out of bounds, except where the program registers
// another safe value (10.0 for B); HIP has no cp.async. A copy that is not
// a producer (the loop's consumer side) stays a vector copy. A loop that
// TMA loads (tile.tma_barriers) leaves its producer, a tile.tma copy, alone.
// CHECK-LABEL: tile.func @pipelined
// CHECK: tile.copy {{.*}} {tile.bounds = [{dims = ["upper", "in"]}, {}], tile.instr = "cp.async", tile.prefetch = 0 : i64, tile.vec = 8 : i64, tile.zero_fill}
// CHECK: tile.copy {{.*}} {tile.bounds = [{dims = ["upper", "in"], safe_value = 1.000000e+01 : f64}, {}], tile.instr = "cp.async", tile.prefetch = 1 : i64, tile.vec = 8 : i64}
// CHECK: tile.copy {{.*}} {tile.instr = "vector", tile.vec = 8 : i64} : !tile.buffer<[64, 32], f16, shared.dyn> to !tile.buffer<[64, 32], f16, shared.dyn>
// CHECK: tile.copy {{.*}} {tile.prefetch = 0 : i64, tile.tma = 0 : i64}
// HIP-LABEL: tile.func @pipelined
// HIP: tile.copy {{.*}} tile.instr = "vector", tile.prefetch = 0 : i64, tile.vec = 8 : i64, tile.zero_fill}
// HIP: tile.copy {{.*}} tile.instr = "vector", tile.prefetch = 1 : i64, tile.vec = 8 : i64}
tile.func @pipelined(%A: !tile.buffer<[250, 256], f16, global>, %B: !tile.buffer<[250, 256], f16, global>) {
  tile.kernel (%bx, %by) grid [4, 4] threads [128] {
    %A_s = tile.alloc {tile.stages = 3 : i64} : !tile.buffer<[64, 32], f16, shared.dyn>
    %B_s = tile.alloc {tile.stages = 3 : i64} : !tile.buffer<[64, 32], f16, shared.dyn>
    %T_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %y = arith.muli %by, %c64 : index
    tile.pipelined %k = %c0 to %c8 stages 3 attributes {tile.stages = 3 : i64} {
      %kk = arith.muli %k, %c32 : index
      %At = tile.region %A[%y, %kk] : !tile.buffer<[250, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %At to %A_s {tile.bounds = [{dims = ["upper", "in"]}, {}], tile.prefetch = 0 : i64} : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      %Bt = tile.region %B[%y, %kk] : !tile.buffer<[250, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %Bt to %B_s {tile.bounds = [{dims = ["upper", "in"], safe_value = 10.0 : f64}, {}], tile.prefetch = 1 : i64} : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      tile.copy %A_s to %T_s : !tile.buffer<[64, 32], f16, shared.dyn> to !tile.buffer<[64, 32], f16, shared.dyn>
    }
    tile.pipelined %k = %c0 to %c8 stages 3 attributes {tile.stages = 3 : i64, tile.tma_barriers = 24576 : i64} {
      %kk = arith.muli %k, %c32 : index
      %At = tile.region %A[%y, %kk] : !tile.buffer<[250, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %At to %A_s {tile.prefetch = 0 : i64, tile.tma = 0 : i64} : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
    }
  }
}

// -----

// T.async_copy is cp.async on CUDA wherever it stands; into local memory it
// cannot be (cp.async writes shared memory), nor from shared memory
// (cp.async reads global memory: `.shared.global`).
// CHECK-LABEL: tile.func @async_scope
// CHECK: tile.copy {{.*}} {tile.async_copy = "commit", tile.instr = "cp.async", tile.vec = 4 : i64, tile.zero_fill}
// CHECK: tile.copy {{.*}} {tile.async_copy = "scope", tile.instr = "vector", tile.vec = 4 : i64}
// CHECK: tile.copy %shared to %shared_0 {tile.async_copy = "commit", tile.instr = "vector", tile.vec = 4 : i64}
// HIP-LABEL: tile.func @async_scope
// HIP: tile.copy {{.*}} {tile.async_copy = "commit", tile.instr = "vector", tile.vec = 4 : i64, tile.zero_fill}
tile.func @async_scope(%A: !tile.buffer<[128, 128], f32, global>) {
  tile.kernel (%bx) grid [4] threads [128] {
    %c0 = arith.constant 0 : index
    %S = tile.alloc : !tile.buffer<[32, 128], f32, shared.dyn>
    %L = tile.alloc : !tile.buffer<[4], f32, local>
    %At = tile.region %A[%c0, %c0] : !tile.buffer<[128, 128], f32, global> to !tile.buffer<[32, 128], f32, global>
    tile.copy %At to %S {tile.async_copy = "commit"} : !tile.buffer<[32, 128], f32, global> to !tile.buffer<[32, 128], f32, shared.dyn>
    %Ar = tile.region %A[%c0, %c0] : !tile.buffer<[128, 128], f32, global> to !tile.buffer<[1, 4], f32, global>
    tile.copy %Ar to %L {tile.async_copy = "scope"} : !tile.buffer<[1, 4], f32, global> to !tile.buffer<[4], f32, local>
    %S2 = tile.alloc : !tile.buffer<[32, 128], f32, shared.dyn>
    tile.copy %S to %S2 {tile.async_copy = "commit"} : !tile.buffer<[32, 128], f32, shared.dyn> to !tile.buffer<[32, 128], f32, shared.dyn>
  }
}

// -----

// Chunk sizes: an innermost extent of 6 f16 takes 2-element (4-byte)
// chunks; 2 fp8 elements are 2 bytes, no vector: element by element in
// chunks of 2; a conversion goes element by element; a column (the copy's
// dimension is not the tensor's innermost) and a transposed view (stride 64
// innermost) have no contiguous chunk.
// CHECK-LABEL: tile.func @chunks
// CHECK: tile.copy {{.*}} {tile.instr = "vector", tile.vec = 2 : i64} : !tile.buffer<[16, 6], f16, global>
// CHECK: tile.copy {{.*}} {tile.instr = "element", tile.vec = 2 : i64} : !tile.buffer<[16, 2], f8E4M3FN, global>
// CHECK: tile.copy {{.*}} {tile.instr = "element", tile.vec = 1 : i64} : !tile.buffer<[16, 32], f16, shared.dyn> to !tile.buffer<[16, 32], f32, global>
// CHECK: tile.copy {{.*}} {tile.instr = "element", tile.vec = 1 : i64} : !tile.buffer<[16, 1], f16, global>
// CHECK: tile.copy {{.*}} {tile.instr = "element", tile.vec = 1 : i64} : !tile.buffer<[16, 32], f32, global>
tile.func @chunks(%A: !tile.buffer<[64, 64], f16, global>, %Q: !tile.buffer<[64, 64], f8E4M3FN, global>, %C: !tile.buffer<[64, 64], f32, global>, %T: !tile.buffer<[64, 64], f32, global> {tile.strides = [1, 64]}) {
  tile.kernel (%bx) grid [4] threads [128] {
    %c0 = arith.constant 0 : index
    %S6 = tile.alloc : !tile.buffer<[16, 6], f16, shared.dyn>
    %S2 = tile.alloc : !tile.buffer<[16, 2], f8E4M3FN, shared.dyn>
    %H = tile.alloc : !tile.buffer<[16, 32], f16, shared.dyn>
    %Col = tile.alloc : !tile.buffer<[16], f16, shared.dyn>
    %F = tile.alloc : !tile.buffer<[16, 32], f32, shared.dyn>
    %A6 = tile.region %A[%c0, %c0] : !tile.buffer<[64, 64], f16, global> to !tile.buffer<[16, 6], f16, global>
    tile.copy %A6 to %S6 : !tile.buffer<[16, 6], f16, global> to !tile.buffer<[16, 6], f16, shared.dyn>
    %Q2 = tile.region %Q[%c0, %c0] : !tile.buffer<[64, 64], f8E4M3FN, global> to !tile.buffer<[16, 2], f8E4M3FN, global>
    tile.copy %Q2 to %S2 : !tile.buffer<[16, 2], f8E4M3FN, global> to !tile.buffer<[16, 2], f8E4M3FN, shared.dyn>
    %Ct = tile.region %C[%c0, %c0] : !tile.buffer<[64, 64], f32, global> to !tile.buffer<[16, 32], f32, global>
    tile.copy %H to %Ct : !tile.buffer<[16, 32], f16, shared.dyn> to !tile.buffer<[16, 32], f32, global>
    %Ac = tile.region %A[%c0, %c0] : !tile.buffer<[64, 64], f16, global> to !tile.buffer<[16, 1], f16, global>
    tile.copy %Ac to %Col : !tile.buffer<[16, 1], f16, global> to !tile.buffer<[16], f16, shared.dyn>
    %Tt = tile.region %T[%c0, %c0] : !tile.buffer<[64, 64], f32, global> to !tile.buffer<[16, 32], f32, global>
    tile.copy %Tt to %F : !tile.buffer<[16, 32], f32, global> to !tile.buffer<[16, 32], f32, shared.dyn>
  }
}

// -----

// HIP's buffer resource covers tensors under 2 GiB only: the 4 GiB tensor
// keeps the masked path (no tile.zero_fill). Fragment copies are not this
// pass's (their registers decide).
// HIP-LABEL: tile.func @large
// HIP: tile.copy {{.*}} {tile.instr = "vector", tile.vec = 8 : i64} : !tile.buffer<[64, 32], f16, global>
// HIP: tile.copy %{{[^ ]*}} to %{{[^ ]*}} : !tile.buffer<[64, 64], f32, local.fragment>
// CHECK-LABEL: tile.func @large
// CHECK: tile.copy %{{[^ ]*}} to %{{[^ ]*}} : !tile.buffer<[64, 64], f32, local.fragment>
tile.func @large(%A: !tile.buffer<[65536, 32768], f16, global>, %C: !tile.buffer<[256, 256], f32, global>) {
  tile.kernel (%bx) grid [4] threads [128] {
    %c0 = arith.constant 0 : index
    %S = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    %At = tile.region %A[%c0, %c0] : !tile.buffer<[65536, 32768], f16, global> to !tile.buffer<[64, 32], f16, global>
    tile.copy %At to %S : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
    %Ct = tile.region %C[%c0, %c0] : !tile.buffer<[256, 256], f32, global> to !tile.buffer<[64, 64], f32, global>
    tile.copy %acc to %Ct : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, global>
  }
}
