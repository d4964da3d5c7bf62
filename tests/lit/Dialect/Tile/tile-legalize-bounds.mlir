// RUN: tlc-opt --tile-legalize-bounds %s | FileCheck %s
// RUN: tlc-opt --tile-legalize-bounds %S/Inputs/legalize-bounds-bad-safe-value.mlir 2>&1 | FileCheck %S/Inputs/legalize-bounds-bad-safe-value.mlir --check-prefix=BAD

// Tiles that divide the tensor: the intervals of the region offsets
// (block index * 64, loop index * 32) plus the tile's positions stay below
// the extents, so no dimension is checked. The shared operand is no
// global view ({}).
// CHECK-LABEL: tile.func @divides
// CHECK:      tile.copy %{{.*}} to %{{.*}} {tile.bounds = [{dims = ["in", "in"]}, {}]}
// CHECK:      tile.copy %{{.*}} to %{{.*}} {tile.bounds = [{}, {dims = ["in", "in"]}]}
tile.func @divides(%A: !tile.buffer<[256, 256], f16, global>, %C: !tile.buffer<[256, 256], f16, global>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  tile.kernel (%bx, %by) grid [4, 8] threads [128] {
    %S = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %row = arith.muli %bx, %c64 : index
    tile.for %k = %c0 to %c8 step %c1 {
      %col = arith.muli %k, %c32 : index
      %At = tile.region %A[%row, %col] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %At to %S : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
    }
    %ocol = arith.muli %by, %c32 : index
    %Ct = tile.region %C[%row, %ocol] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
    tile.copy %S to %Ct : !tile.buffer<[64, 32], f16, shared.dyn> to !tile.buffer<[64, 32], f16, global>
  }
}

// Ragged tiles: 64 x 32 tiles over a 150 x 70 tensor (a grid of 3 x 3)
// reach rows up to 191 and columns up to 95, so both dimensions are
// checked at their extents. The copy in the other direction is guarded
// the same way (out-of-range writes are skipped).
// CHECK-LABEL: tile.func @ragged
// CHECK:      tile.copy %{{.*}} to %{{.*}} {tile.bounds = [{dims = ["upper", "upper"]}, {}]}
// CHECK:      tile.copy %{{.*}} to %{{.*}} {tile.bounds = [{}, {dims = ["upper", "upper"]}]}
tile.func @ragged(%A: !tile.buffer<[150, 70], f32, global>, %B: !tile.buffer<[150, 70], f32, global>) {
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  tile.kernel (%bx, %by) grid [3, 3] threads [128] {
    %S = tile.alloc : !tile.buffer<[64, 32], f32, shared.dyn>
    %row = arith.muli %by, %c64 : index
    %col = arith.muli %bx, %c32 : index
    %At = tile.region %A[%row, %col] : !tile.buffer<[150, 70], f32, global> to !tile.buffer<[64, 32], f32, global>
    tile.copy %At to %S : !tile.buffer<[64, 32], f32, global> to !tile.buffer<[64, 32], f32, shared.dyn>
    %Bt = tile.region %B[%row, %col] : !tile.buffer<[150, 70], f32, global> to !tile.buffer<[64, 32], f32, global>
    tile.copy %S to %Bt : !tile.buffer<[64, 32], f32, shared.dyn> to !tile.buffer<[64, 32], f32, global>
  }
}

// Element reads in a T.Parallel: rows shifted up by 10 may lie below 0
// (checked there only: the largest row is 64 + 63 - 10 < 150), and the
// tensor's safe value (T.annotate_safe_value, A: 10) is what they read
// out of range. The store into B at the unshifted rows needs no check.
// An index read from memory (a gather through %I) may be anything: both
// ends. A symbolic extent (M) is always checked.
// CHECK-LABEL: tile.func @elements
// CHECK:      tile.load %A[%{{.*}}, %{{.*}}] {tile.bounds = [{dims = ["lower", "in"], safe_value = 1.000000e+01 : f64}, {}, {}]}
// CHECK:      tile.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {tile.bounds = [{}, {dims = ["in", "in"]}, {}, {}]}
// CHECK:      tile.load %{{.*}}[%{{.*}}] {tile.bounds = [{dims = ["in"]}, {}]}
// CHECK:      tile.load %A[%{{.*}}, %{{.*}}] {tile.bounds = [{dims = ["both", "in"], safe_value = 1.000000e+01 : f64}, {}, {}]}
// CHECK:      tile.load %{{.*}}[%{{.*}}, %{{.*}}] {tile.bounds = [{dims = ["upper", "in"]}, {}, {}]}
tile.func @elements(%A: !tile.buffer<[150, 32], f32, global> loc("A"), %B: !tile.buffer<[150, 32], f32, global>, %I: !tile.buffer<[64], i32, global>, %X: !tile.buffer<[M, 32], f32, global>) symbols(M: dynamic) {
  %c10 = arith.constant 10 : index
  %c64 = arith.constant 64 : index
  tile.kernel (%bx) grid [2] threads [128] {
    tile.intrinsic "T.annotate_safe_value"() {options = {safe_value_map = "{A: 10}"}} : () -> ()
    %S = tile.alloc : !tile.buffer<[64, 32], f32, shared.dyn>
    %base = arith.muli %bx, %c64 : index
    tile.parallel (%i, %j) in [64, 32] {
      %r0 = arith.addi %base, %i : index
      %r = arith.subi %r0, %c10 : index
      %v = tile.load %A[%r, %j] : !tile.buffer<[150, 32], f32, global>
      tile.store %v, %B[%r0, %j] : !tile.buffer<[150, 32], f32, global>
      %t = tile.load %I[%i] : !tile.buffer<[64], i32, global>
      %g = arith.index_cast %t : i32 to index
      %w = tile.load %A[%g, %j] : !tile.buffer<[150, 32], f32, global>
      %x = tile.load %X[%r0, %j] : !tile.buffer<[M, 32], f32, global>
    }
  }
}
