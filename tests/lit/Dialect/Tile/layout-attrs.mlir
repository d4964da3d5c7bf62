// RUN: tlc-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// Layout attributes round-trip; defaults (replicate = 1, no origin) are
// omitted when printing.

// CHECK-LABEL: tile.func @roundtrip
// CHECK: #tile.fragment<[16, 8], thread = "4 * (i % 8) + j // 2", index = ["2 * (i // 8) + j % 2"], origin = "mma.C">
// CHECK: #tile.fragment<[16], thread = "4 * (i % 8) + rep", index = ["i // 8"], replicate = 4>
// CHECK: #tile.layout<[8, 64], map = ["64 * i + 8 * ((j // 8) % 8 ^ i % 8) + j % 8"], kind = "swizzle 128B", bits = 16>
tile.func @roundtrip() {
  tile.kernel (%bx) grid [1] threads [32] {
    %c = tile.alloc {layout = #tile.fragment<[16, 8], thread = "4 * (i % 8) + j // 2", index = ["2 * (i // 8) + j % 2"], origin = "mma.C">} : !tile.buffer<[16, 8], f32, local.fragment>
    %r = tile.alloc {layout = #tile.fragment<[16], thread = "4 * (i % 8) + rep", index = ["i // 8"], replicate = 4>} : !tile.buffer<[16], f32, local.fragment>
    %s = tile.alloc {layout = #tile.layout<[8, 64], map = ["64 * i + 8 * ((j // 8) % 8 ^ i % 8) + j % 8"], kind = "swizzle 128B", bits = 16>} : !tile.buffer<[8, 64], f16, shared.dyn>
  }
}

// -----

// Two elements in one slot.
// expected-error @+1 {{invalid fragment}}
#bad = #tile.fragment<[16, 8], thread = "i % 8", index = ["j"]>
tile.func @overlap() {
  tile.kernel (%bx) grid [1] threads [32] {
    %c = tile.alloc {layout = #bad} : !tile.buffer<[16, 8], f32, local.fragment>
  }
}

// -----

// expected-error @+1 {{invalid layout: the map is not injective on the tile}}
#bad = #tile.layout<[8, 8], map = ["i"]>
tile.func @not_injective() {
  tile.kernel (%bx) grid [1] threads [32] {
    %s = tile.alloc {layout = #bad} : !tile.buffer<[8, 8], f16, shared.dyn>
  }
}

// -----

// expected-error @+1 {{invalid layout: in 'i + q': 4: unknown name 'q'}}
#bad = #tile.layout<[8, 8], map = ["i + q"]>
tile.func @unknown_name() {
  tile.kernel (%bx) grid [1] threads [32] {
    %s = tile.alloc {layout = #bad} : !tile.buffer<[8, 8], f16, shared.dyn>
  }
}
