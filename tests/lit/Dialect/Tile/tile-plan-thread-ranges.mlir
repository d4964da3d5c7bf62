// RUN: tlc-opt --tile-plan-thread-ranges=target=cuda:sm_80 --split-input-file %s 2>/dev/null | FileCheck %s
// RUN: tlc-opt --tile-plan-thread-ranges=target=hip:gfx942 --split-input-file %s 2>/dev/null | FileCheck %s
// RUN: tlc-opt --tile-plan-thread-ranges=target=cuda:sm_80 --split-input-file --verify-diagnostics %s
// RUN: tlc-opt --tile-plan-thread-ranges=target=cpu --split-input-file %s 2>/dev/null | FileCheck %s --check-prefix=NONE
// RUN: tlc-opt --tile-plan-thread-ranges --split-input-file %s 2>/dev/null | FileCheck %s --check-prefix=NONE
// In the GPU pipeline: Target/CUDA/ws-range.py's `if tx < 128: ... else:`
// over 384 threads, the branch on threads [0, 128) synchronised by named
// barrier 15, the else branch ([128, 384)) by 14; the same on HIP.
// RUN: tlc-build --emit=lowered --target=cuda:sm_80 %S/../../Target/CUDA/ws-range.py | FileCheck %s --check-prefix=WS
// RUN: tlc-build --emit=lowered --target=hip:gfx942 %S/../../Target/CUDA/ws-range.py | FileCheck %s --check-prefix=WS
// WS: module attributes {{{.*}}tile.ranges_planned
// WS: tile.if
// WS: } else {
// WS: } {tile.range_barriers = array<i64: 15, 14>}

// Without a GPU target nothing is planned.
// NONE-NOT: tile.range_barriers
// NONE-NOT: tile.ranges_planned

// A two-sided condition: each branch is a range of its own, the branch
// met first gets 15.
// CHECK: module attributes {tile.ranges_planned}
// CHECK-LABEL: tile.func @two_sided
// CHECK: } else {
// CHECK: } {tile.range_barriers = array<i64: 15, 14>}
tile.func @two_sided() {
  tile.kernel (%bx) grid [1] threads [384] {
    %tx = tile.thread_binding 0
    %c128 = arith.constant 128 : index
    %lo = arith.cmpi slt, %tx, %c128 : index
    tile.if %lo {
      tile.sync_threads
    } else {
      tile.sync_threads
    }
  }
}

// -----

// One id per range: the second `tx < 128` reuses 15, its else branch
// ([128, 256)) gets the next one. A condition that does not depend on the
// thread index, and a range that is not whole warps (tx < 48), get none.
// CHECK-LABEL: tile.func @same_range
// CHECK: tile.if
// CHECK: } {tile.range_barriers = array<i64: 15, 0>}
// CHECK: tile.if
// CHECK: } else {
// CHECK: } {tile.range_barriers = array<i64: 15, 14>}
// CHECK: tile.if
// CHECK-NOT: tile.range_barriers
// CHECK: tile.if
// CHECK-NOT: tile.range_barriers
// CHECK: arith.constant 7 : index
tile.func @same_range() {
  tile.kernel (%bx) grid [4] threads [256] {
    %tx = tile.thread_binding 0
    %c128 = arith.constant 128 : index
    %c1 = arith.constant 1 : index
    %c48 = arith.constant 48 : index
    %lo = arith.cmpi slt, %tx, %c128 : index
    tile.if %lo {
      tile.sync_threads
    }
    %lo2 = arith.cmpi slt, %tx, %c128 : index
    tile.if %lo2 {
      tile.sync_threads
    } else {
      tile.sync_threads
    }
    %uniform = arith.cmpi slt, %bx, %c1 : index
    tile.if %uniform {
      tile.sync_threads
    } else {
      tile.sync_threads
    }
    %odd = arith.cmpi slt, %tx, %c48 : index
    tile.if %odd {
      tile.sync_threads
    }
    %end = arith.constant 7 : index
  }
}

// -----

// Ids the program names itself (T.sync_threads(15, 128),
// T.named_barrier_arrive(14, ...)) are skipped; nested ranges are met
// inner first (post-order): [0, 128) gets 13, [0, 256) 12, the else branch
// of the outer condition ([256, 512)) 11.
// CHECK-LABEL: tile.func @program_ids
// CHECK: tile.if
// CHECK: tile.if
// CHECK: } {tile.range_barriers = array<i64: 13, 0>}
// CHECK: } else {
// CHECK: } {tile.range_barriers = array<i64: 12, 11>}
tile.func @program_ids() {
  tile.kernel (%bx) grid [1] threads [512] {
    %tx = tile.thread_binding 0
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %c14 = arith.constant 14 : i32
    %c384 = arith.constant 384 : i32
    %outer = arith.cmpi slt, %tx, %c256 : index
    tile.if %outer {
      %inner = arith.cmpi slt, %tx, %c128 : index
      tile.if %inner {
        tile.sync_threads {barrier_id = 15 : i64, arrive_count = 128 : i64}
      }
    } else {
      tile.intrinsic "T.named_barrier_arrive"(%c14, %c384) : (i32, i32) -> ()
    }
  }
}

// -----

// Sixteen ranges (tx < 32 * k, k = 1..16) over 1024 threads: ids 15..1
// run out at the last one; the function is not lowered further.
// CHECK-LABEL: tile.func @too_many
// CHECK-SAME: tile.lowering_failed
// CHECK-NOT: tile.range_barriers
tile.func @too_many() {
  tile.kernel (%bx) grid [1] threads [1024] {
    %tx = tile.thread_binding 0
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c96 = arith.constant 96 : index
    %c128 = arith.constant 128 : index
    %c160 = arith.constant 160 : index
    %c192 = arith.constant 192 : index
    %c224 = arith.constant 224 : index
    %c256 = arith.constant 256 : index
    %c288 = arith.constant 288 : index
    %c320 = arith.constant 320 : index
    %c352 = arith.constant 352 : index
    %c384 = arith.constant 384 : index
    %c416 = arith.constant 416 : index
    %c448 = arith.constant 448 : index
    %c480 = arith.constant 480 : index
    %c512 = arith.constant 512 : index
    %p1 = arith.cmpi slt, %tx, %c32 : index
    tile.if %p1 { tile.sync_threads }
    %p2 = arith.cmpi slt, %tx, %c64 : index
    tile.if %p2 { tile.sync_threads }
    %p3 = arith.cmpi slt, %tx, %c96 : index
    tile.if %p3 { tile.sync_threads }
    %p4 = arith.cmpi slt, %tx, %c128 : index
    tile.if %p4 { tile.sync_threads }
    %p5 = arith.cmpi slt, %tx, %c160 : index
    tile.if %p5 { tile.sync_threads }
    %p6 = arith.cmpi slt, %tx, %c192 : index
    tile.if %p6 { tile.sync_threads }
    %p7 = arith.cmpi slt, %tx, %c224 : index
    tile.if %p7 { tile.sync_threads }
    %p8 = arith.cmpi slt, %tx, %c256 : index
    tile.if %p8 { tile.sync_threads }
    %p9 = arith.cmpi slt, %tx, %c288 : index
    tile.if %p9 { tile.sync_threads }
    %p10 = arith.cmpi slt, %tx, %c320 : index
    tile.if %p10 { tile.sync_threads }
    %p11 = arith.cmpi slt, %tx, %c352 : index
    tile.if %p11 { tile.sync_threads }
    %p12 = arith.cmpi slt, %tx, %c384 : index
    tile.if %p12 { tile.sync_threads }
    %p13 = arith.cmpi slt, %tx, %c416 : index
    tile.if %p13 { tile.sync_threads }
    %p14 = arith.cmpi slt, %tx, %c448 : index
    tile.if %p14 { tile.sync_threads }
    %p15 = arith.cmpi slt, %tx, %c480 : index
    tile.if %p15 { tile.sync_threads }
    %p16 = arith.cmpi slt, %tx, %c512 : index
    // expected-error @+1 {{more thread ranges than free named barriers (ids 1..15) in this kernel}}
    tile.if %p16 { tile.sync_threads }
  }
}
