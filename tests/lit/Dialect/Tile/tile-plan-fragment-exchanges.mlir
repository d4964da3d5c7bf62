// RUN: tlc-opt --tile-plan-fragment-exchanges=target=cuda:sm_80 %s | FileCheck %s --check-prefix=OPT
// RUN: tlc-opt --tile-plan-fragment-exchanges=target=hip:gfx942 %s | FileCheck %s --check-prefix=OPT
// In the GPU pipeline, after tile-assign-fragment-layouts
// (Inputs/fragment_exchanges.py):
// RUN: tlc-build --emit=lowered --target=cuda:sm_80 %S/Inputs/fragment_exchanges.py 2>/dev/null | FileCheck %s --check-prefixes=CHECK,SM80
// RUN: tlc-build --emit=lowered --target=cuda:sm_90a %S/Inputs/fragment_exchanges.py 2>/dev/null | FileCheck %s --check-prefixes=CHECK,AGREE
// RUN: tlc-build --emit=lowered --target=hip:gfx942 %S/Inputs/fragment_exchanges.py 2>/dev/null | FileCheck %s --check-prefixes=CHECK,AGREE
// The editor's hints read the same plan (Driver/Exchanges.cpp): one per
// exchanged fragment, at its tile's offset.
// RUN: tlc-build --check --target=cuda:sm_80 %S/Inputs/fragment_exchanges.py 2>&1 | FileCheck %s --check-prefix=HINT

// The choice reads the recorded tile.fragment_layout attributes and
// nothing of the target library (tlc-opt links none): f and g hold each
// row's halves ("half rows", thread 2 * i + j // 32), h each column's
// ("half columns", thread 2 * j + i // 32).
// OPT-LABEL: tile.func @recorded
// OPT: tile.kernel {{.*}}attributes {tile.exchanges_planned
// Same layout at the loop variables: nothing exchanged.
// OPT: tile.parallel (%i, %j)
// OPT-NEXT: tile.load %[[F:frag]][%i, %j] :
// OPT-NEXT: tile.store %{{.*}}, %[[G:frag_0]][%i, %j] :
// f read transposed into h: element (j, i) of f is on thread 2 * j + i // 32,
// register i % 32, where h holds (i, j): the thread's own registers.
// OPT: tile.parallel (%i, %j)
// OPT-NEXT: tile.load %[[F]][%j, %i] :
// OPT-NEXT: tile.store %{{.*}}, %[[H:frag_1]][%i, %j] :
// The same two untransposed disagree: the loop (partitioned by f) stores h
// through the area.
// OPT: tile.parallel (%i, %j)
// OPT-NEXT: tile.load %[[F]][%i, %j] :
// OPT-NEXT: tile.store %{{.*}}, %[[H]][%i, %j] {tile.exchange_tile = 0 : i64}
// A fragment every thread holds whole, read at a constant: nothing.
// OPT: tile.parallel (%i, %j)
// OPT-NOT: tile.exchange_tile
// OPT: tile.store
// g read at a row chosen by an outer value: g through the area, f not.
// OPT: tile.parallel (%i, %j)
// OPT-NEXT: tile.load %[[G]][%i, %arg2] {tile.exchange_tile = 0 : i64}
// OPT-NEXT: tile.store %{{.*}}, %[[F]][%i, %j] :
// Copies: the same layout directly, another through the area.
// OPT: tile.copy %[[F]] to %[[G]] :
// OPT: tile.copy %[[F]] to %[[H]] {tile.exchanged}
// A kernel whose layouts are not recorded is left to the printer.
// OPT-LABEL: tile.func @no_choice
// OPT-NOT: tile.exchange_tile
// OPT-NOT: tile.exchanged
// OPT-NOT: tile.exchanges_planned

// The kernel is planned; the area follows the buffers.
// CHECK-LABEL: tile.func @exchanges
// CHECK: tile.kernel {{.*}}tile.exchange_offset = 8192 : i64, tile.exchanges_planned
// Every fragment at the loop variables in the partitioning layout (s is
// read whole by every thread): nothing exchanged.
// CHECK: tile.parallel (%i, %j)
// CHECK-NOT: tile.exchange_tile
// C1 and C2 read transposed: C1 in the area's first tile, C2 in the second.
// CHECK: tile.parallel (%i, %j)
// CHECK-NEXT: tile.load %{{.*}}[%j, %i] {tile.exchange_tile = 0 : i64}
// CHECK-NEXT: tile.load %{{.*}}[%j, %i] {tile.exchange_tile = 1 : i64}
// C2 read and written transposed: every access names its tile.
// CHECK: tile.parallel (%i, %j)
// CHECK-NEXT: tile.load %[[C2:.*]][%j, %i] {tile.exchange_tile = 0 : i64}
// CHECK: tile.store %{{.*}}, %[[C2]][%j, %i] {tile.exchange_tile = 0 : i64}
// The copy into the FullRow accumulator: layouts that disagree on sm_80
// (mma.sync, 2 x 2 warps into 4 x 1), agree on sm_90a (wgmma's) and HIP
// (MFMA's).
// SM80: tile.copy %[[C2]] to %{{[a-z_0-9]+}} {tile.exchange_bytes = 16384 : i64, tile.exchanged}
// AGREE: tile.copy %[[C2]] to %{{[a-z_0-9]+}} : !tile.buffer

// HINT-DAG: fragment_exchanges.py:35:25: remark: C1 goes through shared memory here (fragment exchange, 16384 bytes at byte 8192;
// HINT-DAG: fragment_exchanges.py:35:25: remark: C2 goes through shared memory here (fragment exchange, 16384 bytes at byte 24576;
// HINT-DAG: fragment_exchanges.py:38:25: remark: C2 goes through shared memory here (fragment exchange, 16384 bytes at byte 8192;
// HINT-DAG: fragment_exchanges.py:41:13: remark: C2 goes through shared memory here (fragment exchange, 16384 bytes at byte 8192;

tile.func @recorded(%X: !tile.buffer<[64, 64], f32, global>, %Y: !tile.buffer<[64, 64], f32, global>, %n: index) {
  tile.kernel (%bx) grid [1] threads [128] attributes {tile.fragment_layouts_assigned, tile.shared_bytes = 0 : i64} {
    %f = tile.alloc {tile.fragment_layout = #tile.fragment<[64, 64], thread = "2 * i + j // 32", index = ["j % 32"], origin = "half rows">} : !tile.buffer<[64, 64], f32, local.fragment>
    %g = tile.alloc {tile.fragment_layout = #tile.fragment<[64, 64], thread = "2 * i + j // 32", index = ["j % 32"], origin = "half rows">} : !tile.buffer<[64, 64], f32, local.fragment>
    %h = tile.alloc {tile.fragment_layout = #tile.fragment<[64, 64], thread = "2 * j + i // 32", index = ["i % 32"], origin = "half columns">} : !tile.buffer<[64, 64], f32, local.fragment>
    %s = tile.alloc {tile.fragment_layout = #tile.fragment<[4], thread = "rep", index = ["i"], replicate = 128, origin = "replicated">} : !tile.buffer<[4], f32, local.fragment>
    tile.copy %X to %f : !tile.buffer<[64, 64], f32, global> to !tile.buffer<[64, 64], f32, local.fragment>
    tile.parallel (%i, %j) in [64, 64] {
      %v = tile.load %f[%i, %j] : !tile.buffer<[64, 64], f32, local.fragment>
      tile.store %v, %g[%i, %j] : !tile.buffer<[64, 64], f32, local.fragment>
    }
    tile.parallel (%i, %j) in [64, 64] {
      %v = tile.load %f[%j, %i] : !tile.buffer<[64, 64], f32, local.fragment>
      tile.store %v, %h[%i, %j] : !tile.buffer<[64, 64], f32, local.fragment>
    }
    tile.parallel (%i, %j) in [64, 64] {
      %v = tile.load %f[%i, %j] : !tile.buffer<[64, 64], f32, local.fragment>
      tile.store %v, %h[%i, %j] : !tile.buffer<[64, 64], f32, local.fragment>
    }
    tile.parallel (%i, %j) in [64, 64] {
      %c0 = arith.constant 0 : index
      %w = tile.load %s[%c0] : !tile.buffer<[4], f32, local.fragment>
      %v = tile.load %g[%i, %j] : !tile.buffer<[64, 64], f32, local.fragment>
      %x = arith.addf %v, %w : f32
      tile.store %x, %g[%i, %j] : !tile.buffer<[64, 64], f32, local.fragment>
    }
    tile.parallel (%i, %j) in [64, 64] {
      %v = tile.load %g[%i, %n] : !tile.buffer<[64, 64], f32, local.fragment>
      tile.store %v, %f[%i, %j] : !tile.buffer<[64, 64], f32, local.fragment>
    }
    tile.copy %f to %g : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, local.fragment>
    tile.copy %f to %h : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, local.fragment>
    tile.copy %h to %Y : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, global>
  }
}

tile.func @no_choice(%X: !tile.buffer<[64, 64], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] attributes {tile.shared_bytes = 0 : i64} {
    %f = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    %g = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    tile.parallel (%i, %j) in [64, 64] {
      %v = tile.load %f[%j, %i] : !tile.buffer<[64, 64], f32, local.fragment>
      tile.store %v, %g[%i, %j] : !tile.buffer<[64, 64], f32, local.fragment>
    }
    tile.copy %g to %X : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, global>
  }
}
