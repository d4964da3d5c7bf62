// RUN: tlc-opt --tile-plan-shared-memory %s | FileCheck %s
// RUN: tlc-opt --tile-plan-shared-memory=alignment=1024 %s | FileCheck %s --check-prefix=ALIGN
// RUN: not tlc-opt --tile-plan-shared-memory=alignment=96 %s 2>&1 | FileCheck %s --check-prefix=BADALIGN

// A GEMM with a 3-stage pipeline (tile.stages from tile-plan-pipelines) and
// an epilogue through shared memory: A_s and B_s (3 x 4 KiB each) are live
// in the loop, C_s (16 KiB) only after it, so C_s reuses their bytes.
// CHECK-LABEL: tile.func @epilogue_reuses_stages
// CHECK: tile.kernel {{.*}} attributes {tile.shared_bytes = 24576 : i64}
// CHECK: %[[A:.*]] = tile.alloc {tile.offset = 0 : i64, tile.stages = 3 : i64}
// CHECK: %[[B:.*]] = tile.alloc {tile.offset = 12288 : i64, tile.stages = 3 : i64}
// CHECK: %[[C:.*]] = tile.alloc {tile.offset = 0 : i64} : !tile.buffer<[64, 64], f32, shared.dyn>
// ALIGN-LABEL: tile.func @epilogue_reuses_stages
// ALIGN: tile.alloc {tile.offset = 0 : i64, tile.stages = 3 : i64}
// ALIGN: tile.alloc {tile.offset = 12288 : i64, tile.stages = 3 : i64}
// ALIGN: tile.alloc {tile.offset = 0 : i64}
// BADALIGN: error: tile-plan-shared-memory: alignment 96 is not a power of two
tile.func @epilogue_reuses_stages(%A: !tile.buffer<[256, 256], f16, global>, %B: !tile.buffer<[256, 256], f16, global>, %C: !tile.buffer<[256, 256], f32, global>) {
  tile.kernel (%bx, %by) grid [4, 4] threads [128] {
    %A_s = tile.alloc {tile.stages = 3 : i64} : !tile.buffer<[64, 32], f16, shared.dyn>
    %B_s = tile.alloc {tile.stages = 3 : i64} : !tile.buffer<[64, 32], f16, shared.dyn>
    %C_s = tile.alloc : !tile.buffer<[64, 64], f32, shared.dyn>
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    tile.pipelined %k = %c0 to %c8 stages 3 {
      %At = tile.region %A[%c0, %k] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %At to %A_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      %Bt = tile.region %B[%c0, %k] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %Bt to %B_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      tile.gemm %A_s, %B_s, %acc {transpose_b} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    }
    tile.copy %acc to %C_s : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, shared.dyn>
    %Ct = tile.region %C[%c0, %c0] : !tile.buffer<[256, 256], f32, global> to !tile.buffer<[64, 64], f32, global>
    tile.copy %C_s to %Ct : !tile.buffer<[64, 64], f32, shared.dyn> to !tile.buffer<[64, 64], f32, global>
  }
}

// Buffers live at the same time never overlap; offsets are aligned (two
// f16[50] buffers: 100 bytes each, the second at 128); a buffer nothing
// uses takes no bytes; a view of a buffer is a use of it.
// CHECK-LABEL: tile.func @live_together
// CHECK: tile.kernel {{.*}} attributes {tile.shared_bytes = 228 : i64}
// CHECK: tile.alloc {tile.offset = 0 : i64} : !tile.buffer<[50], f16, shared>
// CHECK: tile.alloc {tile.offset = 128 : i64} : !tile.buffer<[50], f16, shared>
// CHECK: tile.alloc {tile.offset = 0 : i64} : !tile.buffer<[4096], f32, shared>
// ALIGN-LABEL: tile.func @live_together
// ALIGN: tile.kernel {{.*}} attributes {tile.shared_bytes = 1124 : i64}
tile.func @live_together(%X: !tile.buffer<[50], f16, global>) {
  tile.kernel (%bx) grid [1] threads [64] {
    %s0 = tile.alloc : !tile.buffer<[50], f16, shared>
    %s1 = tile.alloc : !tile.buffer<[50], f16, shared>
    %unused = tile.alloc : !tile.buffer<[4096], f32, shared>
    tile.copy %X to %s0 : !tile.buffer<[50], f16, global> to !tile.buffer<[50], f16, shared>
    %v = tile.view %s1 : !tile.buffer<[50], f16, shared> to !tile.buffer<[5, 10], f16, shared>
    tile.copy %s0 to %s1 : !tile.buffer<[50], f16, shared> to !tile.buffer<[50], f16, shared>
    %c0 = arith.constant 0 : index
    %e = tile.load %v[%c0, %c0] : !tile.buffer<[5, 10], f16, shared>
    tile.store %e, %s0[%c0] : !tile.buffer<[50], f16, shared>
  }
}

// A kernel the evaluator marked `tile.reuse_in_loops`: inside one iteration
// of the loop over n, A_s and B_s (written whole by the T.Pipelined before
// any read) are dead once C_s is written, so C_s takes their bytes. K_s is
// read at the top of an iteration before it is written again (its contents
// cross iterations) and keeps bytes of its own. Without the mark, the loop
// is one statement and all four buffers are live together.
// CHECK-LABEL: tile.func @reuse_in_loops
// CHECK: tile.kernel {{.*}} attributes {tile.reuse_in_loops, tile.shared_bytes = 20480 : i64}
// CHECK: tile.alloc {tile.offset = 0 : i64, tile.stages = 2 : i64} : !tile.buffer<[64, 32], f16, shared.dyn>
// CHECK: tile.alloc {tile.offset = 8192 : i64, tile.stages = 2 : i64} : !tile.buffer<[64, 32], f16, shared.dyn>
// CHECK: tile.alloc {tile.offset = 0 : i64} : !tile.buffer<[64, 64], f32, shared.dyn>
// CHECK: tile.alloc {tile.offset = 16384 : i64} : !tile.buffer<[32, 32], f32, shared.dyn>
// CHECK-LABEL: tile.func @not_marked
// CHECK: tile.kernel {{.*}} attributes {tile.shared_bytes = 36864 : i64}
tile.func @reuse_in_loops(%A: !tile.buffer<[256, 256], f16, global>, %B: !tile.buffer<[256, 256], f16, global>, %C: !tile.buffer<[256, 256], f32, global>, %K: !tile.buffer<[32, 32], f32, global>) {
  tile.kernel (%bx) grid [4] threads [128] attributes {tile.reuse_in_loops} {
    %A_s = tile.alloc {tile.stages = 2 : i64} : !tile.buffer<[64, 32], f16, shared.dyn>
    %B_s = tile.alloc {tile.stages = 2 : i64} : !tile.buffer<[64, 32], f16, shared.dyn>
    %C_s = tile.alloc : !tile.buffer<[64, 64], f32, shared.dyn>
    %K_s = tile.alloc : !tile.buffer<[32, 32], f32, shared.dyn>
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    tile.for %n = %c0 to %c4 step %c1 {
      tile.copy %K_s to %K : !tile.buffer<[32, 32], f32, shared.dyn> to !tile.buffer<[32, 32], f32, global>
      tile.copy %K to %K_s : !tile.buffer<[32, 32], f32, global> to !tile.buffer<[32, 32], f32, shared.dyn>
      tile.pipelined %k = %c0 to %c8 stages 2 {
        %At = tile.region %A[%c0, %k] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
        tile.copy %At to %A_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
        %Bt = tile.region %B[%c0, %k] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
        tile.copy %Bt to %B_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
        tile.gemm %A_s, %B_s, %acc {transpose_b} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
      }
      tile.copy %acc to %C_s : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, shared.dyn>
      %Ct = tile.region %C[%c0, %n] : !tile.buffer<[256, 256], f32, global> to !tile.buffer<[64, 64], f32, global>
      tile.copy %C_s to %Ct : !tile.buffer<[64, 64], f32, shared.dyn> to !tile.buffer<[64, 64], f32, global>
    }
  }
}
tile.func @not_marked(%A: !tile.buffer<[256, 256], f16, global>, %B: !tile.buffer<[256, 256], f16, global>, %C: !tile.buffer<[256, 256], f32, global>, %K: !tile.buffer<[32, 32], f32, global>) {
  tile.kernel (%bx) grid [4] threads [128] {
    %A_s = tile.alloc {tile.stages = 2 : i64} : !tile.buffer<[64, 32], f16, shared.dyn>
    %B_s = tile.alloc {tile.stages = 2 : i64} : !tile.buffer<[64, 32], f16, shared.dyn>
    %C_s = tile.alloc : !tile.buffer<[64, 64], f32, shared.dyn>
    %K_s = tile.alloc : !tile.buffer<[32, 32], f32, shared.dyn>
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    tile.for %n = %c0 to %c4 step %c1 {
      tile.copy %K_s to %K : !tile.buffer<[32, 32], f32, shared.dyn> to !tile.buffer<[32, 32], f32, global>
      tile.copy %K to %K_s : !tile.buffer<[32, 32], f32, global> to !tile.buffer<[32, 32], f32, shared.dyn>
      tile.pipelined %k = %c0 to %c8 stages 2 {
        %At = tile.region %A[%c0, %k] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
        tile.copy %At to %A_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
        %Bt = tile.region %B[%c0, %k] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
        tile.copy %Bt to %B_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
        tile.gemm %A_s, %B_s, %acc {transpose_b} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
      }
      tile.copy %acc to %C_s : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, shared.dyn>
      %Ct = tile.region %C[%c0, %n] : !tile.buffer<[256, 256], f32, global> to !tile.buffer<[64, 64], f32, global>
      tile.copy %C_s to %Ct : !tile.buffer<[64, 64], f32, shared.dyn> to !tile.buffer<[64, 64], f32, global>
    }
  }
}

// A shared tile of symbolic shape is sized at launch: marked
// tile.dynamic_shared, with no offset and no bytes in the plan (the target
// places it after every planned byte).
// CHECK-LABEL: tile.func @symbolic_shape
// CHECK: tile.kernel {{.*}} attributes {tile.shared_bytes = 512 : i64}
// CHECK: tile.alloc {tile.offset = 0 : i64} : !tile.buffer<[128], f32, shared.dyn>
// CHECK: tile.alloc {tile.dynamic_shared} : !tile.buffer<[16, n], i32, shared.dyn>
tile.func @symbolic_shape(%X: !tile.buffer<[16, n], i32, global>) symbols(n: dynamic) {
  tile.kernel (%bx) grid [1] threads [128] {
    %t = tile.alloc : !tile.buffer<[128], f32, shared.dyn>
    %s = tile.alloc : !tile.buffer<[16, n], i32, shared.dyn>
    %c0 = arith.constant 0 : index
    %f = tile.load %t[%c0] : !tile.buffer<[128], f32, shared.dyn>
    tile.store %f, %t[%c0] : !tile.buffer<[128], f32, shared.dyn>
    %e = tile.load %s[%c0, %c0] : !tile.buffer<[16, n], i32, shared.dyn>
    tile.store %e, %X[%c0, %c0] : !tile.buffer<[16, n], i32, global>
  }
}
