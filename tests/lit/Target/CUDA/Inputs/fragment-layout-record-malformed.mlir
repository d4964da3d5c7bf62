// Input of fragment-layout-record.mlir: fragment layout records the CUDA
// and HIP printers refuse, one function each (the error is on the op; the
// other functions still print). The last function is a record they follow.
tile.func @missing(%X: !tile.buffer<[64], f32, global>) {
  tile.kernel (%bx) grid [1] threads [64] attributes {tile.fragment_layouts_assigned} {
    %f = tile.alloc : !tile.buffer<[64], f32, local.fragment>  // CHECK: fragment-layout-record-malformed.mlir:[[@LINE]]:10: error: malformed fragment layout record: fragment '{{.*}}' has no layout (tile-assign-fragment-layouts)
    tile.copy %X to %f : !tile.buffer<[64], f32, global> to !tile.buffer<[64], f32, local.fragment>
  }
}
tile.func @not_fragment(%X: !tile.buffer<[64], f32, global>) {
  tile.kernel (%bx) grid [1] threads [64] attributes {tile.fragment_layouts_assigned} {
    %f = tile.alloc {tile.fragment_layout = 3 : i64} : !tile.buffer<[64], f32, local.fragment>  // CHECK: fragment-layout-record-malformed.mlir:[[@LINE]]:10: error: malformed fragment layout record: the layout is not a #tile.fragment (tile-assign-fragment-layouts)
    tile.copy %X to %f : !tile.buffer<[64], f32, global> to !tile.buffer<[64], f32, local.fragment>
  }
}
tile.func @wrong_shape(%X: !tile.buffer<[64], f32, global>) {
  tile.kernel (%bx) grid [1] threads [64] attributes {tile.fragment_layouts_assigned} {
    %f = tile.alloc {tile.fragment_layout = #tile.fragment<[32], thread = "i", index = ["0"]>} : !tile.buffer<[64], f32, local.fragment>  // CHECK: fragment-layout-record-malformed.mlir:[[@LINE]]:10: error: malformed fragment layout record: the layout's shape does not match the buffer (tile-assign-fragment-layouts)
    tile.copy %X to %f : !tile.buffer<[64], f32, global> to !tile.buffer<[64], f32, local.fragment>
  }
}
tile.func @on_shared(%X: !tile.buffer<[64], f32, global>) {
  tile.kernel (%bx) grid [1] threads [64] attributes {tile.fragment_layouts_assigned, tile.shared_bytes = 256 : i64} {
    %f = tile.alloc {tile.fragment_layout = #tile.fragment<[64], thread = "i", index = ["0"]>, tile.offset = 0 : i64} : !tile.buffer<[64], f32, shared.dyn>  // CHECK: fragment-layout-record-malformed.mlir:[[@LINE]]:10: error: malformed fragment layout record: a layout on an op that defines no fragment (tile-assign-fragment-layouts)
    tile.copy %X to %f : !tile.buffer<[64], f32, global> to !tile.buffer<[64], f32, shared.dyn>
  }
}
// CHECK-LABEL: well_formed_kernel(
// CHECK: float buf[1];
tile.func @well_formed(%X: !tile.buffer<[64], f32, global>, %Y: !tile.buffer<[64], f32, global>) {
  tile.kernel (%bx) grid [1] threads [64] attributes {tile.fragment_layouts_assigned} {
    %f = tile.alloc {tile.fragment_layout = #tile.fragment<[64], thread = "i", index = ["0"]>} : !tile.buffer<[64], f32, local.fragment>
    tile.copy %X to %f : !tile.buffer<[64], f32, global> to !tile.buffer<[64], f32, local.fragment>
    tile.copy %f to %Y : !tile.buffer<[64], f32, local.fragment> to !tile.buffer<[64], f32, global>
  }
}
