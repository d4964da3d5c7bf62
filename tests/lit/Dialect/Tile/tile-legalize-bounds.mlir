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

// T.assume (tile.assume) proves checks away for the accesses after it in
// its block and in later operations of that block: `l + i >= 0 and l + i <
// N`, written again as the store's index (`l + i` computed twice, equal by
// structure), leaves the store into A unchecked. The same store before the
// promise, and one in a loop that runs before it, keep the check at N (the
// lower end is not checked: `l` is unknown, taken as non-negative, the
// rule for unknown indices). A branch after the promise is covered too;
// `l + i + 1` is another index.
// CHECK-LABEL: tile.func @assumed
// CHECK:      tile.store %{{.*}}, %{{.*}}[%{{.*}}] {tile.bounds = [{}, {dims = ["upper"]}, {}]}
// CHECK:      tile.store %{{.*}}, %{{.*}}[%{{.*}}] {tile.bounds = [{}, {dims = ["upper"]}, {}]}
// CHECK:      tile.assume
// CHECK:      tile.store %{{.*}}, %{{.*}}[%{{.*}}] {tile.bounds = [{}, {dims = ["in"]}, {}]}
// CHECK:      tile.store %{{.*}}, %{{.*}}[%{{.*}}] {tile.bounds = [{}, {dims = ["in"]}, {}]}
// CHECK:      tile.store %{{.*}}, %{{.*}}[%{{.*}}] {tile.bounds = [{}, {dims = ["upper"]}, {}]}
tile.func @assumed(%A: !tile.buffer<[N], f32, global>, %l: i32, %n: index) symbols(N: dynamic) {
  %N = tile.symbol "N"
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 0.000000e+00 : f32
  tile.kernel (%_) grid [1] threads [32] {
    tile.for %i = %c0 to %n step %c1 {
      %a = arith.index_cast %l : i32 to index
      %b = arith.addi %a, %i : index
      tile.store %cst, %A[%b] : !tile.buffer<[N], f32, global>
    }
    tile.for %i = %c0 to %n step %c1 {
      %0 = arith.index_cast %l : i32 to index
      %1 = arith.addi %0, %i : index
      tile.store %cst, %A[%1] : !tile.buffer<[N], f32, global>
      %z = arith.constant 0 : index
      %2 = arith.cmpi sge, %1, %z : index
      %3 = arith.index_cast %l : i32 to index
      %4 = arith.addi %3, %i : index
      %5 = arith.cmpi slt, %4, %N : index
      %6 = arith.andi %2, %5 : i1
      tile.assume %6
      %8 = arith.index_cast %l : i32 to index
      %9 = arith.addi %8, %i : index
      tile.store %cst, %A[%9] : !tile.buffer<[N], f32, global>
      tile.if %5 {
        tile.store %cst, %A[%1] : !tile.buffer<[N], f32, global>
      }
      %k = arith.addi %9, %c1 : index
      tile.store %cst, %A[%k] : !tile.buffer<[N], f32, global>
    }
  }
}

// A loop variable is below the loop's upper bound: `for j in
// T.serial(N)` indexes N's dimension without a check (it is >= 0 from the
// interval). The thread index in M's dimension stays checked (a promise
// that it is below N says nothing about M), as does a loop whose step is
// not a positive constant. Promises against constants
// prove static extents: `k <= 99` for 100, `k < 100` too, `k <= 100` not.
// CHECK-LABEL: tile.func @loop_facts
// CHECK:      tile.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {tile.bounds = [{}, {dims = ["upper", "in"]}, {}, {}]}
// CHECK:      tile.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {tile.bounds = [{}, {dims = ["upper", "upper"]}, {}, {}]}
// CHECK:      tile.store %{{.*}}, %{{.*}}[%{{.*}}] {tile.bounds = [{}, {dims = ["in"]}, {}]}
// CHECK:      tile.store %{{.*}}, %{{.*}}[%{{.*}}] {tile.bounds = [{}, {dims = ["upper"]}, {}]}
tile.func @loop_facts(%B: !tile.buffer<[M, N], f32, global>, %C: !tile.buffer<[100], f32, global>, %s: index, %k: index) symbols(M: dynamic, N: dynamic) {
  %M = tile.symbol "M"
  %N = tile.symbol "N"
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c99 = arith.constant 99 : index
  %c100 = arith.constant 100 : index
  %cst = arith.constant 0.000000e+00 : f32
  tile.kernel (%_) grid [1] threads [32] {
    %tx = tile.thread_binding 0
    %txn = arith.cmpi slt, %tx, %N : index
    tile.assume %txn
    tile.for %j = %c0 to %N step %c1 {
      tile.store %cst, %B[%tx, %j] : !tile.buffer<[M, N], f32, global>
    }
    tile.for %j = %c0 to %N step %s {
      tile.store %cst, %B[%tx, %j] : !tile.buffer<[M, N], f32, global>
    }
    %p = arith.cmpi sle, %k, %c99 : index
    %q = arith.cmpi sge, %k, %c0 : index
    %pq = arith.andi %p, %q : i1
    tile.assume %pq
    tile.store %cst, %C[%k] : !tile.buffer<[100], f32, global>
    %r = arith.cmpi sle, %s, %c100 : index
    %t = arith.cmpi sge, %s, %c0 : index
    %rt = arith.andi %r, %t : i1
    tile.assume %rt
    tile.store %cst, %C[%s] : !tile.buffer<[100], f32, global>
  }
}

// T.address_of names the first element of its view (the element region
// `Out[i]`): its positions are the region's offsets, so a grid index that
// stays inside needs no check, one past a ragged end is checked at the
// extent, and a T.assume about the offset proves its check away. (Other
// intrinsics name elements by index arguments of their own: unknown
// positions, checked at the extent, as before.)
// CHECK-LABEL: tile.func @address_of
// CHECK:      tile.intrinsic "T.address_of"(%{{.*}}) {params = ["buffer_load"], tile.bounds = [{dims = ["in"]}]}
// CHECK:      tile.intrinsic "T.address_of"(%{{.*}}) {params = ["buffer_load"], tile.bounds = [{dims = ["upper"]}]}
// CHECK:      tile.assume
// CHECK:      tile.intrinsic "T.address_of"(%{{.*}}) {params = ["buffer_load"], tile.bounds = [{dims = ["in"]}]}
tile.func @address_of(%Out: !tile.buffer<[256], f32, global>, %Short: !tile.buffer<[200], f32, global>, %l: i32) {
  %c256 = arith.constant 256 : index
  tile.kernel (%i) grid [256] threads [1] {
    %0 = tile.region %Out[%i] : !tile.buffer<[256], f32, global> to !tile.buffer<[1], f32, global>
    %1 = tile.intrinsic "T.address_of"(%0) {params = ["buffer_load"]} : (!tile.buffer<[1], f32, global>) -> i64
    %2 = tile.region %Short[%i] : !tile.buffer<[200], f32, global> to !tile.buffer<[1], f32, global>
    %3 = tile.intrinsic "T.address_of"(%2) {params = ["buffer_load"]} : (!tile.buffer<[1], f32, global>) -> i64
    %a = arith.index_cast %l : i32 to index
    %z = arith.constant 0 : index
    %c200 = arith.constant 200 : index
    %lo = arith.cmpi sge, %a, %z : index
    %hi = arith.cmpi slt, %a, %c200 : index
    %ok = arith.andi %lo, %hi : i1
    tile.assume %ok
    %4 = tile.region %Short[%a] : !tile.buffer<[200], f32, global> to !tile.buffer<[1], f32, global>
    %5 = tile.intrinsic "T.address_of"(%4) {params = ["buffer_load"]} : (!tile.buffer<[1], f32, global>) -> i64
  }
}
