// What tile-lower-im2col cannot lower is an error at the call, and the
// function is marked so that no target builds it.
// CHECK: lower-im2col-bad.mlir:12:5: error: T.im2col: the image and the tile have different element types
// CHECK: lower-im2col-bad.mlir:20:5: error: T.im2col: the tile must be a 2-d shared or local buffer of static shape
// CHECK: tile.func @mixed{{.*}}attributes {tile.lowering_failed}
// CHECK: tile.intrinsic "T.im2col"
// CHECK: tile.func @fragment{{.*}}attributes {tile.lowering_failed}
tile.func @mixed(%img: !tile.buffer<[2, 8, 8, 16], f16, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %t = tile.alloc : !tile.buffer<[64, 32], f32, shared.dyn>
    %c = arith.constant 1 : i32
    tile.intrinsic "T.im2col"(%img, %t, %bx, %bx, %c, %c, %c, %c) {params = ["img", "col", "nhw_step", "c_step", "kernel", "stride", "dilation", "pad"]} : (!tile.buffer<[2, 8, 8, 16], f16, global>, !tile.buffer<[64, 32], f32, shared.dyn>, index, index, i32, i32, i32, i32) -> ()
  }
}

tile.func @fragment(%img: !tile.buffer<[2, 8, 8, 16], f16, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %t = tile.alloc : !tile.buffer<[64, 32], f16, local.fragment>
    %c = arith.constant 1 : i32
    tile.intrinsic "T.im2col"(%img, %t, %bx, %bx, %c, %c, %c, %c) {params = ["img", "col", "nhw_step", "c_step", "kernel", "stride", "dilation", "pad"]} : (!tile.buffer<[2, 8, 8, 16], f16, global>, !tile.buffer<[64, 32], f16, local.fragment>, index, index, i32, i32, i32, i32) -> ()
  }
}
