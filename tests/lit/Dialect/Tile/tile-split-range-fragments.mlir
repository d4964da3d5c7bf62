// RUN: tlc-opt --tile-split-range-fragments --split-input-file %s | FileCheck %s
// RUN: tlc-opt --tile-split-range-fragments=target=cuda:sm_90a --split-input-file %s | FileCheck %s --check-prefix=GPU

// Two warpgroups' gemms into one accumulator, each stored by its own
// range: acc gets one allocation per range.
// CHECK-LABEL: tile.func @two_ranges
// CHECK: %[[ACC0:.*]] = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
// CHECK-NEXT: %[[ACC1:.*]] = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
// CHECK-NOT: tile.alloc
// CHECK: tile.if
// CHECK-NEXT: tile.gemm %{{.*}}, %{{.*}}, %[[ACC0]]
// CHECK: tile.if
// CHECK-NEXT: tile.gemm %{{.*}}, %{{.*}}, %[[ACC1]]
// CHECK: tile.if
// CHECK: tile.copy %[[ACC0]] to
// CHECK: tile.if
// CHECK: tile.copy %[[ACC1]] to
tile.func @two_ranges(%A: !tile.buffer<[64, 64], f16, global>, %C: !tile.buffer<[128, 64], f32, global>) {
  tile.kernel (%bx) grid [1] threads [256] {
    %tx = tile.thread_binding 0
    %s = tile.alloc : !tile.buffer<[64, 64], f16, shared.dyn>
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    tile.copy %A to %s : !tile.buffer<[64, 64], f16, global> to !tile.buffer<[64, 64], f16, shared.dyn>
    %c128 = arith.constant 128 : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %g = arith.floordivsi %tx, %c128 : index
    %g0 = arith.cmpi eq, %g, %c0 : index
    %g1 = arith.cmpi eq, %g, %c1 : index
    tile.if %g0 {
      tile.gemm %s, %s, %acc {clear_accum} : !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    }
    tile.if %g1 {
      tile.gemm %s, %s, %acc {clear_accum} : !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    }
    tile.if %g0 {
      %r = tile.region %C[0, 0] : !tile.buffer<[128, 64], f32, global> to !tile.buffer<[64, 64], f32, global>
      tile.copy %acc to %r : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, global>
    }
    tile.if %g1 {
      %r = tile.region %C[64, 0] : !tile.buffer<[128, 64], f32, global> to !tile.buffer<[64, 64], f32, global>
      tile.copy %acc to %r : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, global>
    }
  }
}

// -----

// The ping-pong carry: the block-wide sum runs once per copy (csum gets
// copies too, its clear and its store as well); in the staged loop the
// repeated statement keeps its stage and takes the next order slot.
// CHECK-LABEL: tile.func @carry
// CHECK: %[[ACC0:.*]] = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
// CHECK-NEXT: %[[ACC1:.*]] = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
// CHECK-NEXT: %[[SUM0:.*]] = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
// CHECK-NEXT: %[[SUM1:.*]] = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
// CHECK-NOT: tile.alloc
// CHECK: tile.clear %[[SUM0]]
// CHECK-NEXT: tile.clear %[[SUM1]]
// CHECK: tile.pipelined {{.*}} order [0, 2, 3, 4, 1] stage [0, 0, 2, 2, 1] {
// CHECK: tile.gemm %{{.*}}, %{{.*}}, %[[ACC0]]
// CHECK: tile.parallel
// CHECK-NEXT: tile.load %[[SUM0]]
// CHECK-NEXT: tile.load %[[ACC0]]
// CHECK: tile.store %{{.*}}, %[[SUM0]]
// CHECK: tile.parallel
// CHECK-NEXT: tile.load %[[SUM1]]
// CHECK-NEXT: tile.load %[[ACC1]]
// CHECK: tile.store %{{.*}}, %[[SUM1]]
// CHECK: tile.gemm %{{.*}}, %{{.*}}, %[[ACC1]]
// The block-wide store: each copy stores its half of the rows.
// CHECK: %[[P0:.*]] = tile.region %[[SUM0]][0, 0] : {{.*}} to !tile.buffer<[32, 64], f32, local.fragment>
// CHECK-NEXT: %[[D0:.*]] = tile.region %arg1[0, 0] : {{.*}} to !tile.buffer<[32, 64], f32, global>
// CHECK-NEXT: tile.copy %[[P0]] to %[[D0]]
// CHECK-NEXT: %[[P1:.*]] = tile.region %[[SUM1]][32, 0] : {{.*}} to !tile.buffer<[32, 64], f32, local.fragment>
// CHECK-NEXT: %[[D1:.*]] = tile.region %arg1[32, 0] : {{.*}} to !tile.buffer<[32, 64], f32, global>
// CHECK-NEXT: tile.copy %[[P1]] to %[[D1]]
// On a GPU target each repeated block-wide use runs in its copy's range.
// GPU-LABEL: tile.func @carry
// GPU: tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
// GPU-NEXT: tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
// GPU-NEXT: %[[SUM0:.*]] = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
// GPU-NEXT: %[[SUM1:.*]] = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
// GPU: %[[T0:.*]] = tile.thread_binding 0
// GPU-NEXT: %[[C0:.*]] = arith.constant 128 : index
// GPU-NEXT: %[[IN0:.*]] = arith.cmpi slt, %[[T0]], %[[C0]] : index
// GPU-NEXT: tile.if %[[IN0]] {
// GPU-NEXT: tile.clear %[[SUM0]]
// GPU: %[[T1:.*]] = tile.thread_binding 0
// GPU-NEXT: %[[C1:.*]] = arith.constant 128 : index
// GPU-NEXT: %[[IN1:.*]] = arith.cmpi sge, %[[T1]], %[[C1]] : index
// GPU-NEXT: tile.if %[[IN1]] {
// GPU-NEXT: tile.clear %[[SUM1]]
// GPU: tile.pipelined {{.*}} order [0, 2, 3, 4, 1] stage [0, 0, 2, 2, 1] {
// GPU: arith.cmpi slt
// GPU-NEXT: tile.if
// GPU-NEXT: tile.parallel
// GPU-NEXT: tile.load %[[SUM0]]
// GPU: arith.cmpi sge
// GPU-NEXT: tile.if
// GPU-NEXT: tile.parallel
// GPU-NEXT: tile.load %[[SUM1]]
// GPU: arith.cmpi slt
// GPU-NEXT: tile.if
// GPU-NEXT: tile.region %[[SUM0]][0, 0]
// GPU: arith.cmpi sge
// GPU-NEXT: tile.if
// GPU-NEXT: tile.region %[[SUM1]][32, 0]
tile.func @carry(%A: !tile.buffer<[64, 64], f16, global>, %C: !tile.buffer<[64, 64], f32, global>) {
  tile.kernel (%bx) grid [1] threads [256] {
    %tx = tile.thread_binding 0
    %s = tile.alloc : !tile.buffer<[64, 64], f16, shared.dyn>
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    %sum = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    tile.clear %sum : !tile.buffer<[64, 64], f32, local.fragment>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    tile.pipelined %k = %c0 to %c4 stages 3 order [0, 2, 3, 1] stage [0, 0, 2, 1] {
      tile.copy %A to %s : !tile.buffer<[64, 64], f16, global> to !tile.buffer<[64, 64], f16, shared.dyn>
      %g = arith.floordivsi %tx, %c128 : index
      %g0 = arith.cmpi eq, %g, %c0 : index
      tile.if %g0 {
        tile.gemm %s, %s, %acc {clear_accum} : !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
      }
      tile.parallel (%i, %j) in [64, 64] {
        %x = tile.load %sum[%i, %j] : !tile.buffer<[64, 64], f32, local.fragment>
        %y = tile.load %acc[%i, %j] : !tile.buffer<[64, 64], f32, local.fragment>
        %z = arith.addf %x, %y : f32
        tile.store %z, %sum[%i, %j] : !tile.buffer<[64, 64], f32, local.fragment>
      }
      %g1 = arith.cmpi eq, %g, %c1 : index
      tile.if %g1 {
        tile.gemm %s, %s, %acc {clear_accum} : !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
      }
    }
    tile.copy %sum to %C : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, global>
  }
}

// -----

// One range only (the other threads never touch acc): nothing to copy.
// CHECK-LABEL: tile.func @one_range
// CHECK: tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
// CHECK-NOT: tile.alloc
tile.func @one_range(%A: !tile.buffer<[64, 64], f16, global>, %C: !tile.buffer<[64, 64], f32, global>) {
  tile.kernel (%bx) grid [1] threads [256] {
    %tx = tile.thread_binding 0
    %s = tile.alloc : !tile.buffer<[64, 64], f16, shared.dyn>
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    tile.copy %A to %s : !tile.buffer<[64, 64], f16, global> to !tile.buffer<[64, 64], f16, shared.dyn>
    %c128 = arith.constant 128 : index
    %lo = arith.cmpi slt, %tx, %c128 : index
    tile.if %lo {
      tile.gemm %s, %s, %acc {clear_accum} : !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
      tile.copy %acc to %C : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, global>
    }
  }
}

// -----

// Range 0 loads the fragment, range 1 stores it: values would pass between
// ranges through registers, which cannot hold them (range 1's copy is
// never written). Left as one fragment (the GPU targets refuse it at range
// 1's use; ws-errors.py).
// CHECK-LABEL: tile.func @cross_range
// CHECK: tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
// CHECK-NOT: tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
tile.func @cross_range(%A: !tile.buffer<[64, 64], f32, global>, %B: !tile.buffer<[64, 64], f32, global>) {
  tile.kernel (%bx) grid [1] threads [256] {
    %tx = tile.thread_binding 0
    %f = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    %c128 = arith.constant 128 : index
    %lo = arith.cmpi slt, %tx, %c128 : index
    tile.if %lo {
      tile.copy %A to %f : !tile.buffer<[64, 64], f32, global> to !tile.buffer<[64, 64], f32, local.fragment>
    } else {
      tile.copy %f to %B : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, global>
    }
  }
}

// -----

// Block-wide statements other than a T.copy that write global memory from
// the copies: a T.Parallel reading acc's rows at %i runs once per copy,
// its body guarded to the copy's rows (copy 0: i < 32, copy 1: i >= 32);
// a tile-form T.atomic_add becomes a T.Parallel of element adds of the
// same memory order, guarded alike (each element added once).
// CHECK-LABEL: tile.func @row_shares
// CHECK: %[[ACC0:.*]] = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
// CHECK-NEXT: %[[ACC1:.*]] = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
// CHECK: tile.parallel (%[[I0:.*]], %[[J0:.*]]) in [64, 64] {
// CHECK-NEXT: %[[C32:.*]] = arith.constant 32 : index
// CHECK-NEXT: %[[LT:.*]] = arith.cmpi slt, %[[I0]], %[[C32]] : index
// CHECK-NEXT: tile.if %[[LT]] {
// CHECK-NEXT: tile.load %[[ACC0]][%[[I0]], %[[J0]]]
// CHECK: tile.store %{{.*}}, %arg1[%[[J0]], %[[I0]]]
// CHECK: tile.parallel (%[[I1:.*]], %[[J1:.*]]) in [64, 64] {
// CHECK-NEXT: %[[C32B:.*]] = arith.constant 32 : index
// CHECK-NEXT: %[[GE:.*]] = arith.cmpi sge, %[[I1]], %[[C32B]] : index
// CHECK-NEXT: tile.if %[[GE]] {
// CHECK-NEXT: tile.load %[[ACC1]][%[[I1]], %[[J1]]]
// CHECK: tile.parallel (%[[I2:.*]], %[[J2:.*]]) in [64, 64] {
// CHECK: arith.cmpi slt, %[[I2]]
// CHECK-NEXT: tile.if
// CHECK-NEXT: %[[V2:.*]] = tile.load %[[ACC0]][%[[I2]], %[[J2]]]
// CHECK-NEXT: tile.atomic_add %arg2[%[[I2]], %[[J2]]], %[[V2]] {memory_order = #tile<memory_order release>}
// CHECK: tile.parallel (%[[I3:.*]], %[[J3:.*]]) in [64, 64] {
// CHECK: arith.cmpi sge, %[[I3]]
// CHECK-NEXT: tile.if
// CHECK-NEXT: %[[V3:.*]] = tile.load %[[ACC1]][%[[I3]], %[[J3]]]
// CHECK-NEXT: tile.atomic_add %arg2[%[[I3]], %[[J3]]], %[[V3]] {memory_order = #tile<memory_order release>}
// CHECK-NOT: tile.atomic_add
// GPU-LABEL: tile.func @row_shares
// GPU: arith.cmpi slt, %{{.*}}, %{{.*}} : index
// GPU-NEXT: tile.if
// GPU-NEXT: tile.parallel
// GPU-NEXT: arith.constant 32
// GPU-NEXT: arith.cmpi slt
tile.func @row_shares(%A: !tile.buffer<[64, 64], f16, global>, %C: !tile.buffer<[64, 64], f32, global>, %D: !tile.buffer<[64, 64], f32, global>) {
  tile.kernel (%bx) grid [1] threads [256] {
    %tx = tile.thread_binding 0
    %s = tile.alloc : !tile.buffer<[64, 64], f16, shared.dyn>
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    tile.copy %A to %s : !tile.buffer<[64, 64], f16, global> to !tile.buffer<[64, 64], f16, shared.dyn>
    %c128 = arith.constant 128 : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %g = arith.floordivsi %tx, %c128 : index
    %g0 = arith.cmpi eq, %g, %c0 : index
    %g1 = arith.cmpi eq, %g, %c1 : index
    tile.if %g0 {
      tile.gemm %s, %s, %acc {clear_accum} : !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    }
    tile.if %g1 {
      tile.gemm %s, %s, %acc {clear_accum} : !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    }
    tile.parallel (%i, %j) in [64, 64] {
      %x = tile.load %acc[%i, %j] : !tile.buffer<[64, 64], f32, local.fragment>
      tile.store %x, %C[%j, %i] : !tile.buffer<[64, 64], f32, global>
    }
    tile.atomic_add %D, %acc {memory_order = #tile<memory_order release>} : !tile.buffer<[64, 64], f32, global>, !tile.buffer<[64, 64], f32, local.fragment>
  }
}

// -----

// One narrower range uses acc (warpgroup 1's gemm) and the block then
// stores it (warp_specialize's gemm_copy_gemm_0_1): on a GPU target acc is
// laid out for threads [128, 256), as TileLang binds it to the gemm's
// threads, so the store runs there: wrapped in a tile.if on that range,
// and the fragment it also reads (no range of its own) follows. The CPU
// target keeps one array: nothing changes.
// CHECK-LABEL: tile.func @wider_use
// CHECK: tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
// CHECK-NOT: tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
// CHECK: tile.gemm %{{.*}} local.fragment>
// CHECK-NEXT: }
// CHECK-NEXT: tile.parallel
// CHECK-NEXT: tile.load
// GPU-LABEL: tile.func @wider_use
// GPU: tile.if
// GPU-NEXT: tile.gemm
// GPU: %[[TX:.*]] = tile.thread_binding 0
// GPU-NEXT: %[[C128:.*]] = arith.constant 128 : index
// GPU-NEXT: %[[GE:.*]] = arith.cmpi sge, %[[TX]], %[[C128]] : index
// GPU-NEXT: tile.if %[[GE]] {
// GPU-NEXT: tile.parallel
// GPU: tile.if
// GPU-NEXT: tile.copy %{{.*}} to %{{.*}} : !tile.buffer<[64], f32, local.fragment> to !tile.buffer<[64], f32, global>
tile.func @wider_use(%A: !tile.buffer<[64, 64], f16, global>, %C: !tile.buffer<[64, 64], f32, global>, %D: !tile.buffer<[64], f32, global>) {
  tile.kernel (%bx) grid [1] threads [256] {
    %tx = tile.thread_binding 0
    %s = tile.alloc : !tile.buffer<[64, 64], f16, shared.dyn>
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    %row = tile.alloc : !tile.buffer<[64], f32, local.fragment>
    tile.copy %A to %s : !tile.buffer<[64, 64], f16, global> to !tile.buffer<[64, 64], f16, shared.dyn>
    %c128 = arith.constant 128 : index
    %hi = arith.cmpi sge, %tx, %c128 : index
    tile.if %hi {
      tile.gemm %s, %s, %acc {clear_accum} : !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    }
    tile.parallel (%i, %j) in [64, 64] {
      %v = tile.load %acc[%i, %j] : !tile.buffer<[64, 64], f32, local.fragment>
      tile.store %v, %C[%i, %j] : !tile.buffer<[64, 64], f32, global>
      tile.store %v, %row[%i] : !tile.buffer<[64], f32, local.fragment>
    }
    tile.copy %row to %D : !tile.buffer<[64], f32, local.fragment> to !tile.buffer<[64], f32, global>
  }
}
