// RUN: tlc-opt --tile-pad-annotated-tiles --split-input-file %s | FileCheck %s

// A [65, 36] tile annotated with row pitch 40: stored as [65, 40], used as
// its [65, 36] window; the gemm's region of it is re-based on the padded
// tile at the same offsets (row 1: element 40, byte 80).
// CHECK-LABEL: tile.func @padded
// CHECK: %[[S:.*]] = tile.alloc {layout = #tile.layout<[65, 40], map = ["40 * i + j"], kind = "linear">} : !tile.buffer<[65, 40], f16, shared.dyn>
// CHECK-NEXT: %[[W:.*]] = tile.region %[[S]][0, 0] : !tile.buffer<[65, 40], f16, shared.dyn> to !tile.buffer<[65, 36], f16, shared.dyn>
// CHECK-NOT: tile.annotate_layout
// CHECK: tile.copy %{{.*}} to %[[W]]
// CHECK: tile.region %[[S]][1, 0] : !tile.buffer<[65, 40], f16, shared.dyn> to !tile.buffer<[64, 32], f16, shared.dyn>
tile.func @padded(%A: !tile.buffer<[65, 36], f16, global>, %B: !tile.buffer<[32, 32], f16, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %a = tile.alloc : !tile.buffer<[65, 36], f16, shared.dyn>
    %b = tile.alloc : !tile.buffer<[32, 32], f16, shared.dyn>
    %c = tile.alloc : !tile.buffer<[64, 32], f32, local.fragment>
    tile.annotate_layout %a layout(#tile.layout<[65, 36], map = ["40 * i + j"]>) : !tile.buffer<[65, 36], f16, shared.dyn>
    tile.copy %A to %a : !tile.buffer<[65, 36], f16, global> to !tile.buffer<[65, 36], f16, shared.dyn>
    tile.copy %B to %b : !tile.buffer<[32, 32], f16, global> to !tile.buffer<[32, 32], f16, shared.dyn>
    %r = tile.region %a[1, 0] : !tile.buffer<[65, 36], f16, shared.dyn> to !tile.buffer<[64, 32], f16, shared.dyn>
    tile.gemm %r, %b, %c {clear_accum} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[32, 32], f16, shared.dyn>, !tile.buffer<[64, 32], f32, local.fragment>
  }
}

// -----

// Rank 3: strides 8 * 40 and 40 pad both inner dimensions ([2, 8, 40]).
// CHECK-LABEL: tile.func @rank3
// CHECK: tile.alloc {{.*}}: !tile.buffer<[2, 8, 40], f32, shared.dyn>
// CHECK-NEXT: tile.region %{{.*}}[0, 0, 0] : !tile.buffer<[2, 8, 40], f32, shared.dyn> to !tile.buffer<[2, 6, 36], f32, shared.dyn>
tile.func @rank3(%A: !tile.buffer<[2, 6, 36], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %a = tile.alloc : !tile.buffer<[2, 6, 36], f32, shared.dyn>
    tile.annotate_layout %a layout(#tile.layout<[2, 6, 36], map = ["320 * i + 40 * j + k"]>) : !tile.buffer<[2, 6, 36], f32, shared.dyn>
    tile.copy %A to %a : !tile.buffer<[2, 6, 36], f32, global> to !tile.buffer<[2, 6, 36], f32, shared.dyn>
  }
}

// -----

// Left alone: a swizzle (not row padding), the row-major layout itself, a
// column-major one, and a padded tile a view reads.
// CHECK-LABEL: tile.func @others
// CHECK-COUNT-4: tile.annotate_layout
// CHECK-NOT: tile.region
tile.func @others(%A: !tile.buffer<[64, 64], f16, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %a = tile.alloc : !tile.buffer<[64, 64], f16, shared.dyn>
    tile.annotate_layout %a layout(#tile.layout<[64, 64], map = ["64 * i + 8 * (j // 8 ^ i % 8) + j % 8"]>) : !tile.buffer<[64, 64], f16, shared.dyn>
    %b = tile.alloc : !tile.buffer<[64, 64], f16, shared.dyn>
    tile.annotate_layout %b layout(#tile.layout<[64, 64], map = ["64 * i + j"]>) : !tile.buffer<[64, 64], f16, shared.dyn>
    %c = tile.alloc : !tile.buffer<[64, 64], f16, shared.dyn>
    tile.annotate_layout %c layout(#tile.layout<[64, 64], map = ["i + 64 * j"]>) : !tile.buffer<[64, 64], f16, shared.dyn>
    %d = tile.alloc : !tile.buffer<[64, 64], f16, shared.dyn>
    tile.annotate_layout %d layout(#tile.layout<[64, 64], map = ["72 * i + j"]>) : !tile.buffer<[64, 64], f16, shared.dyn>
    %v = tile.view %d : !tile.buffer<[64, 64], f16, shared.dyn> to !tile.buffer<[4096], f16, shared.dyn>
    tile.copy %A to %a : !tile.buffer<[64, 64], f16, global> to !tile.buffer<[64, 64], f16, shared.dyn>
  }
}
