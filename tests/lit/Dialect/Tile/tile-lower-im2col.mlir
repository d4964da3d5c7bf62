// RUN: tlc-opt --tile-lower-im2col %s | FileCheck %s
// RUN: tlc-opt --tile-lower-im2col %S/Inputs/lower-im2col-bad.mlir 2>&1 | FileCheck %S/Inputs/lower-im2col-bad.mlir

// One [64, 32] tile of the im2col matrix of a [2, 8, 8, 16] NHWC image,
// kernel 3, stride 2, dilation 1, pad 1: a tile.parallel over the tile
// whose element (m, j) reads pixel p = nhw * 64 + m (ow = p % OW,
// oh = (p / OW) % OH, n = p / OW / OH), column q = c * 32 + j (ch = q % C,
// kw = (q / C) % K, kh = q / C / K) at row oh * S + kh * D - P, column
// ow * S + kw * D - P, and 0 outside the image.
// CHECK-LABEL: tile.func @conv
// CHECK-NOT:   T.im2col
// CHECK:       tile.parallel (%[[M:.*]], %[[J:.*]]) in [64, 32] {
// CHECK:         %[[PIX:.*]] = arith.addi %{{.*}}, %[[M]] : index
// CHECK:         %[[OW:.*]] = arith.remsi %[[PIX]], %[[OWN:.*]] : index
// CHECK:         %[[REST:.*]] = arith.divsi %[[PIX]], %[[OWN]] : index
// CHECK:         %[[OH:.*]] = arith.remsi %[[REST]], %[[OHN:.*]] : index
// CHECK:         %[[N:.*]] = arith.divsi %[[REST]], %[[OHN]] : index
// CHECK:         %[[Q:.*]] = arith.addi %{{.*}}, %[[J]] : index
// CHECK:         %[[CH:.*]] = arith.remsi %[[Q]], %[[C16:.*]] : index
// CHECK:         %[[KQ:.*]] = arith.divsi %[[Q]], %[[C16]] : index
// CHECK:         %[[KW:.*]] = arith.remsi %[[KQ]], %[[K:.*]] : index
// CHECK:         %[[KH:.*]] = arith.divsi %[[KQ]], %[[K]] : index
// CHECK:         tile.if %{{.*}} {
// CHECK-NEXT:      %[[X:.*]] = tile.load %arg0[%[[N]], %{{.*}}, %{{.*}}, %[[CH]]] : !tile.buffer<[2, 8, 8, 16], f16, global>
// CHECK-NEXT:      tile.store %[[X]], %[[T:.*]][%[[M]], %[[J]]]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0.000000e+00 : f16
// CHECK-NEXT:      tile.store %[[Z]], %[[T]][%[[M]], %[[J]]]
tile.func @conv(%img: !tile.buffer<[2, 8, 8, 16], f16, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %t = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %k = arith.constant 3 : i32
    %s = arith.constant 2 : i32
    %d = arith.constant 1 : i32
    %p = arith.constant 1 : i32
    tile.intrinsic "T.im2col"(%img, %t, %bx, %c1, %k, %s, %d, %p) {params = ["img", "col", "nhw_step", "c_step", "kernel", "stride", "dilation", "pad"]} : (!tile.buffer<[2, 8, 8, 16], f16, global>, !tile.buffer<[64, 32], f16, shared.dyn>, index, index, i32, i32, i32, i32) -> ()
  }
}
