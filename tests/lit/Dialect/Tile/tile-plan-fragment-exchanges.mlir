// RUN: tlc-opt --tile-plan-fragment-exchanges=target=cuda:sm_80 %s | FileCheck %s --check-prefix=NONE
// In the GPU pipeline, where the CUDA/HIP target library chooses with the
// printer's fragment layouts (Inputs/fragment_exchanges.py):
// RUN: tlc-build --emit=lowered --target=cuda:sm_80 %S/Inputs/fragment_exchanges.py 2>/dev/null | FileCheck %s --check-prefixes=CHECK,SM80
// RUN: tlc-build --emit=lowered --target=cuda:sm_90a %S/Inputs/fragment_exchanges.py 2>/dev/null | FileCheck %s --check-prefixes=CHECK,AGREE
// RUN: tlc-build --emit=lowered --target=hip:gfx942 %S/Inputs/fragment_exchanges.py 2>/dev/null | FileCheck %s --check-prefixes=CHECK,AGREE
// The editor's hints read the same plan (Driver/Exchanges.cpp): one per
// exchanged fragment, at its tile's offset.
// RUN: tlc-build --check --target=cuda:sm_80 %S/Inputs/fragment_exchanges.py 2>&1 | FileCheck %s --check-prefix=HINT

// Without the target library's choice (tlc-opt links none) the pass plans
// nothing: the printer then chooses itself.
// NONE-NOT: tile.exchange_tile
// NONE-NOT: tile.exchanged
// NONE-NOT: tile.exchanges_planned

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
