// RUN: tlc-opt %s | tlc-opt | FileCheck %s
// RUN: tlc-opt %s --mlir-print-op-generic | tlc-opt | FileCheck %s
// RUN: tlc-opt %s --mlir-use-nameloc-as-prefix | FileCheck %s --check-prefix=NAMES

// Round trip of every type and operation of the tile dialect.

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tile.func @types(
// CHECK-SAME: %{{.*}}: !tile.buffer<[128, 32], f16, global>
// CHECK-SAME: %{{.*}}: !tile.buffer<[M, block_K], bf16, global>
// CHECK-SAME: %{{.*}}: !tile.buffer<["M // 128", ?], f32, global>
// CHECK-SAME: %{{.*}}: !tile.buffer<[4], f8E4M3FN, global>
// CHECK-SAME: %{{.*}}: !tile.buffer<[4], f8E5M2, global>
// CHECK-SAME: %{{.*}}: !tile.buffer<[4], i1, global>
// CHECK-SAME: %{{.*}}: !tile.buffer<[4], i8, global>
// CHECK-SAME: %{{.*}}: !tile.buffer<[4], ui8, global>
// CHECK-SAME: %{{.*}}: !tile.buffer<[4], i64, global>
// CHECK-SAME: %{{.*}}: !tile.buffer<[4], f64, global>
// CHECK-SAME: %{{.*}}: !tile.buffer<[4], tf32, global>
// CHECK-SAME: %{{.*}}: !tile.buffer<[4], f4E2M1FN, global>
// CHECK-SAME: %{{.*}}: !tile.buffer<[4], vector<2xf16>, global>
// CHECK-SAME: %{{.*}}: i32, %{{.*}}: f32)
// CHECK-SAME: symbols(M: dynamic, block_K: meta, N: const)
tile.func @types(%a: !tile.buffer<[128, 32], f16, global>,
                 %b: !tile.buffer<[M, block_K], bf16, global>,
                 %c: !tile.buffer<["M // 128", ?], f32, global>,
                 %d: !tile.buffer<[4], f8E4M3FN, global>,
                 %e: !tile.buffer<[4], f8E5M2, global>,
                 %f: !tile.buffer<[4], i1, global>,
                 %g: !tile.buffer<[4], i8, global>,
                 %h: !tile.buffer<[4], ui8, global>,
                 %i: !tile.buffer<[4], i64, global>,
                 %j: !tile.buffer<[4], f64, global>,
                 %k: !tile.buffer<[4], tf32, global>,
                 %l: !tile.buffer<[4], f4E2M1FN, global>,
                 %m: !tile.buffer<[4], vector<2xf16>, global>,
                 %s: i32, %x: f32)
    symbols(M: dynamic, block_K: meta, N: const) {
}

// A symbolic dimension that is not a plain identifier is quoted; one that is
// gets printed bare even when written as a string.
// Function names in symbolic dimensions are not symbols.
// CHECK-LABEL: tile.func @quoting(
// CHECK-SAME: !tile.buffer<[M, "(N + 127) // 128"], f16, global>
// CHECK-SAME: !tile.buffer<["ceildiv(N, 128)", "min(M, 64) * 2"], f16, global>
tile.func @quoting(%a: !tile.buffer<["M", "(N + 127) // 128"], f16, global>,
                   %b: !tile.buffer<["ceildiv(N, 128)", "min(M, 64) * 2"], f16, global>)
    symbols(M: dynamic, N: dynamic) {
}

// CHECK-LABEL: tile.func @scopes(
// CHECK: tile.alloc : !tile.buffer<[64, 64], f16, shared.dyn>
// CHECK: tile.alloc : !tile.buffer<[64, 64], f16, shared>
// CHECK: tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
// CHECK: tile.alloc : !tile.buffer<[8], f32, local>
// CHECK: tile.alloc : !tile.buffer<[1], i32, local.var>
// CHECK: tile.alloc {arrive_counts = array<i64: 128, 32>} : !tile.buffer<[2], ui64, shared.barrier>
// CHECK: tile.alloc {arrive_counts = array<i64: 1>} : !tile.buffer<[1], i64, shared.cluster_barrier>
tile.func @scopes() {
  tile.kernel (%bx) grid [1] threads [128] {
    %0 = tile.alloc : !tile.buffer<[64, 64], f16, shared.dyn>
    %1 = tile.alloc : !tile.buffer<[64, 64], f16, shared>
    %2 = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    %3 = tile.alloc : !tile.buffer<[8], f32, local>
    %4 = tile.alloc : !tile.buffer<[1], i32, local.var>
    %5 = tile.alloc {arrive_counts = array<i64: 128, 32>} : !tile.buffer<[2], ui64, shared.barrier>
    %6 = tile.alloc {arrive_counts = array<i64: 1>} : !tile.buffer<[1], i64, shared.cluster_barrier>
  }
}

//===----------------------------------------------------------------------===//
// A complete GEMM kernel
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tile.func @matmul(
// CHECK-SAME: %[[A:[^:]*]]: !tile.buffer<[M, 1024], f16, global>
// CHECK-SAME: %[[B:[^:]*]]: !tile.buffer<[1024, 1024], f16, global>
// CHECK-SAME: %[[C:[^:]*]]: !tile.buffer<[M, 1024], f16, global>
// CHECK-SAME: symbols(M: dynamic)
// CHECK: %[[M:.*]] = tile.symbol "M"
// CHECK: %[[GY:.*]] = arith.ceildivsi %[[M]]
// CHECK: tile.kernel (%[[BX:.*]], %[[BY:.*]]) grid [8, %[[GY]]] threads [128] {
// CHECK:   tile.use_swizzle 10 column
// CHECK:   %[[AS:.*]] = tile.alloc : !tile.buffer<[128, 32], f16, shared.dyn>
// CHECK:   %[[BS:.*]] = tile.alloc : !tile.buffer<[32, 128], f16, shared.dyn>
// CHECK:   %[[ACC:.*]] = tile.alloc {layout = "mma.C"} : !tile.buffer<[128, 128], f32, local.fragment>
// CHECK:   tile.annotate_layout %[[AS]] layout("make_swizzled_layout") : !tile.buffer<[128, 32], f16, shared.dyn>
// CHECK:   tile.clear %[[ACC]] : !tile.buffer<[128, 128], f32, local.fragment>
// CHECK:   tile.pipelined %[[K:.*]] = %{{.*}} to %{{.*}} stages 3 {
// CHECK:     %[[AT:.*]] = tile.region %[[A]][%{{.*}}, %{{.*}}] : !tile.buffer<[M, 1024], f16, global> to !tile.buffer<[128, 32], f16, global>
// CHECK:     tile.copy %[[AT]] to %[[AS]] : !tile.buffer<[128, 32], f16, global> to !tile.buffer<[128, 32], f16, shared.dyn>
// CHECK:     %[[BT:.*]] = tile.region %[[B]][%{{.*}}, 0] : !tile.buffer<[1024, 1024], f16, global> to !tile.buffer<[32, 128], f16, global>
// CHECK:     tile.copy %[[BT]] to %[[BS]] {coalesced_width = 8 : i64, disable_tma} : !tile.buffer<[32, 128], f16, global> to !tile.buffer<[32, 128], f16, shared.dyn>
// CHECK:     tile.gemm %[[AS]], %[[BS]], %[[ACC]] {k_pack = 2 : i64, policy = #tile<policy full_row>} : !tile.buffer<[128, 32], f16, shared.dyn>, !tile.buffer<[32, 128], f16, shared.dyn>, !tile.buffer<[128, 128], f32, local.fragment>
// CHECK:   }
// CHECK:   %[[CT:.*]] = tile.region %[[C]][%{{.*}}, %{{.*}}] : !tile.buffer<[M, 1024], f16, global> to !tile.buffer<[128, 128], f16, global>
// CHECK:   tile.copy %[[ACC]] to %[[CT]]
// CHECK: }
tile.func @matmul(%A: !tile.buffer<[M, 1024], f16, global>,
                  %B: !tile.buffer<[1024, 1024], f16, global>,
                  %C: !tile.buffer<[M, 1024], f16, global>) symbols(M: dynamic) {
  %M = tile.symbol "M"
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %gy = arith.ceildivsi %M, %c128 : index
  tile.kernel (%bx, %by) grid [8, %gy] threads [128] {
    tile.use_swizzle 10 column
    %A_s = tile.alloc : !tile.buffer<[128, 32], f16, shared.dyn>
    %B_s = tile.alloc : !tile.buffer<[32, 128], f16, shared.dyn>
    %acc = tile.alloc {layout = "mma.C"} : !tile.buffer<[128, 128], f32, local.fragment>
    tile.annotate_layout %A_s layout("make_swizzled_layout") : !tile.buffer<[128, 32], f16, shared.dyn>
    tile.clear %acc : !tile.buffer<[128, 128], f32, local.fragment>
    %y = arith.muli %by, %c128 : index
    %x = arith.muli %bx, %c128 : index
    tile.pipelined %k = %c0 to %c32 stages 3 {
      %kk = arith.muli %k, %c32 : index
      %a = tile.region %A[%y, %kk] : !tile.buffer<[M, 1024], f16, global> to !tile.buffer<[128, 32], f16, global>
      tile.copy %a to %A_s : !tile.buffer<[128, 32], f16, global> to !tile.buffer<[128, 32], f16, shared.dyn>
      %b = tile.region %B[%kk, 0] : !tile.buffer<[1024, 1024], f16, global> to !tile.buffer<[32, 128], f16, global>
      tile.copy %b to %B_s {coalesced_width = 8 : i64, disable_tma} : !tile.buffer<[32, 128], f16, global> to !tile.buffer<[32, 128], f16, shared.dyn>
      tile.gemm %A_s, %B_s, %acc {policy = #tile<policy full_row>, k_pack = 2 : i64} : !tile.buffer<[128, 32], f16, shared.dyn>, !tile.buffer<[32, 128], f16, shared.dyn>, !tile.buffer<[128, 128], f32, local.fragment>
    }
    %c = tile.region %C[%y, %x] : !tile.buffer<[M, 1024], f16, global> to !tile.buffer<[128, 128], f16, global>
    tile.copy %acc to %c : !tile.buffer<[128, 128], f32, local.fragment> to !tile.buffer<[128, 128], f16, global>
  }
}

//===----------------------------------------------------------------------===//
// Softmax-style row reduction and elementwise code
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tile.func @softmax(
// CHECK: tile.kernel (%{{.*}}) grid [%{{.*}}] threads [128, 2] {
// CHECK:   %[[S:.*]] = tile.alloc : !tile.buffer<[64, 128], f32, local.fragment>
// CHECK:   %[[MX:.*]] = tile.alloc : !tile.buffer<[64], f32, local.fragment>
// CHECK:   %[[SUM:.*]] = tile.alloc : !tile.buffer<[64, 1], f32, local.fragment>
// CHECK:   tile.fill %[[MX]], %{{.*}} : !tile.buffer<[64], f32, local.fragment>
// CHECK:   tile.reduce max %[[S]] to %[[MX]] dim = 1 : !tile.buffer<[64, 128], f32, local.fragment> to !tile.buffer<[64], f32, local.fragment>
// CHECK:   tile.parallel (%[[I:.*]], %[[J:.*]]) in [64, 128] {
// CHECK:     %[[V:.*]] = tile.load %[[S]][%[[I]], %[[J]]] : !tile.buffer<[64, 128], f32, local.fragment>
// CHECK:     %[[MI:.*]] = tile.load %[[MX]][%[[I]]] : !tile.buffer<[64], f32, local.fragment>
// CHECK:     %[[E:.*]] = math.exp2
// CHECK:     tile.store %[[E]], %[[S]][%[[I]], %[[J]]] : !tile.buffer<[64, 128], f32, local.fragment>
// CHECK:   }
// CHECK:   tile.reduce sum %[[S]] to %[[SUM]] dim = 1 clear : !tile.buffer<[64, 128], f32, local.fragment> to !tile.buffer<[64, 1], f32, local.fragment>
// CHECK:   tile.reduce absmax %[[S]] to %[[MX]] dim = 1 clear
// CHECK:   tile.reduce abssum %[[S]] to %[[MX]] dim = 1 clear
// CHECK:   tile.reduce min %[[S]] to %[[MX]] dim = 1 clear
// CHECK:   tile.parallel (%{{.*}}) in [%{{.*}}] attributes {coalesced_width = 4 : i64} {
tile.func @softmax(%X: !tile.buffer<[N, 128], f32, global>, %n: index) symbols(N: dynamic) {
  tile.kernel (%bx) grid [%n] threads [128, 2] {
    %S = tile.alloc : !tile.buffer<[64, 128], f32, local.fragment>
    %mx = tile.alloc : !tile.buffer<[64], f32, local.fragment>
    %sum = tile.alloc : !tile.buffer<[64, 1], f32, local.fragment>
    %ninf = arith.constant 0xFF800000 : f32
    tile.fill %mx, %ninf : !tile.buffer<[64], f32, local.fragment>
    tile.reduce max %S to %mx dim = 1 : !tile.buffer<[64, 128], f32, local.fragment> to !tile.buffer<[64], f32, local.fragment>
    tile.parallel (%i, %j) in [64, 128] {
      %v = tile.load %S[%i, %j] : !tile.buffer<[64, 128], f32, local.fragment>
      %m = tile.load %mx[%i] : !tile.buffer<[64], f32, local.fragment>
      %d = arith.subf %v, %m : f32
      %e = math.exp2 %d : f32
      tile.store %e, %S[%i, %j] : !tile.buffer<[64, 128], f32, local.fragment>
    }
    tile.reduce sum %S to %sum dim = 1 clear : !tile.buffer<[64, 128], f32, local.fragment> to !tile.buffer<[64, 1], f32, local.fragment>
    tile.reduce absmax %S to %mx dim = 1 clear : !tile.buffer<[64, 128], f32, local.fragment> to !tile.buffer<[64], f32, local.fragment>
    tile.reduce abssum %S to %mx dim = 1 clear : !tile.buffer<[64, 128], f32, local.fragment> to !tile.buffer<[64], f32, local.fragment>
    tile.reduce min %S to %mx dim = 1 clear : !tile.buffer<[64, 128], f32, local.fragment> to !tile.buffer<[64], f32, local.fragment>
    tile.parallel (%i) in [%n] attributes {coalesced_width = 4 : i64} {
    }
  }
}

//===----------------------------------------------------------------------===//
// Control flow, variables, atomics, scans and debug ops
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tile.func @control(
// CHECK: tile.kernel (%[[BX:.*]]) grid [4] threads [256] {
// CHECK:   %[[TX:.*]] = tile.thread_binding 0
// CHECK:   %[[TY:.*]] = tile.thread_binding 1
// CHECK:   %[[V:.*]] = tile.alloc init(%{{.*}} : i32) : !tile.buffer<[1], i32, local.var>
// CHECK:   %[[L:.*]] = tile.alloc : !tile.buffer<[4], i8, local>
// CHECK:   tile.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:     %[[K:.*]] = tile.load %[[V]][] : !tile.buffer<[1], i32, local.var>
// CHECK:     tile.store %{{.*}}, %[[V]][] : !tile.buffer<[1], i32, local.var>
// CHECK:     %[[U:.*]] = tile.load %[[L]][%[[I]]] : !tile.buffer<[4], i8, local>
// CHECK:     tile.store %[[U]], %[[L]][%[[I]]] : !tile.buffer<[4], i8, local>
// CHECK:   }
// CHECK:   tile.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} unroll attributes {unroll_factor = 2 : i64} {
// CHECK:   tile.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} vectorized {
// CHECK:   tile.if %{{.*}} {
// CHECK:     tile.atomic_add %{{.*}}[%[[BX]]], %{{.*}} : !tile.buffer<[N], f32, global>, f32
// CHECK:   } else {
// CHECK:     %{{.*}} = tile.atomic_add %{{.*}}[%[[BX]]], %{{.*}} {memory_order = #tile<memory_order relaxed>} : !tile.buffer<[N], f32, global>, f32 -> f32
// CHECK:   }
// CHECK:   tile.if %{{.*}} {
// CHECK:     tile.device_assert %{{.*}}, "out of range"
// CHECK:   }
// CHECK-NOT: else
// CHECK:   tile.while {
// CHECK:     tile.condition %{{.*}}
// CHECK:   } do {
// CHECK:     tile.sync_threads
// CHECK:   }
// CHECK:   tile.sync_threads {arrive_count = 64 : i64, barrier_id = 1 : i64}
// CHECK:   tile.atomic_add %{{.*}}, %{{.*}} : !tile.buffer<[1, 64], f32, global>, !tile.buffer<[64], f32, local.fragment>
// CHECK:   tile.cumsum %{{.*}} to %{{.*}} dim = 0 reverse : !tile.buffer<[64], f32, shared.dyn> to !tile.buffer<[64], f32, shared.dyn>
// CHECK:   tile.cumsum %{{.*}} to %{{.*}} dim = 0 : !tile.buffer<[64], f32, shared.dyn> to !tile.buffer<[64], f32, shared.dyn>
// CHECK:   tile.print "acc" %{{.*}} : !tile.buffer<[64], f32, local.fragment>
// CHECK:   tile.print "k" %{{.*}} : i32
// CHECK:   tile.print "here"
// CHECK:   tile.pipelined %{{.*}} = %{{.*}} to %{{.*}} stages 2 order [0, 1, 2] stage [-1, 0, 1] {
tile.func @control(%O: !tile.buffer<[N, 64], f32, global>, %P: !tile.buffer<[N], f32, global>) symbols(N: dynamic) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %f1 = arith.constant 1.0 : f32
  tile.kernel (%bx) grid [4] threads [256] {
    %tx = tile.thread_binding 0
    %ty = tile.thread_binding 1
    %v = tile.alloc init(%z : i32) : !tile.buffer<[1], i32, local.var>
    %l = tile.alloc : !tile.buffer<[4], i8, local>
    tile.for %i = %c0 to %c4 step %c1 {
      %k = tile.load %v[] : !tile.buffer<[1], i32, local.var>
      %k1 = arith.addi %k, %one : i32
      tile.store %k1, %v[] : !tile.buffer<[1], i32, local.var>
      %u = tile.load %l[%i] : !tile.buffer<[4], i8, local>
      tile.store %u, %l[%i] : !tile.buffer<[4], i8, local>
    }
    tile.for %i = %c0 to %c4 step %c1 unroll attributes {unroll_factor = 2 : i64} {
    }
    tile.for %i = %c0 to %c4 step %c1 vectorized {
    }
    %cond = arith.cmpi slt, %tx, %c4 : index
    tile.if %cond {
      tile.atomic_add %P[%bx], %f1 : !tile.buffer<[N], f32, global>, f32
    } else {
      %old = tile.atomic_add %P[%bx], %f1 {memory_order = #tile<memory_order relaxed>} : !tile.buffer<[N], f32, global>, f32 -> f32
    }
    tile.if %cond {
      tile.device_assert %cond, "out of range"
    }
    tile.while {
      %k = tile.load %v[] : !tile.buffer<[1], i32, local.var>
      %c = arith.cmpi slt, %k, %one : i32
      tile.condition %c
    } do {
      tile.sync_threads
    }
    tile.sync_threads {barrier_id = 1 : i64, arrive_count = 64 : i64}
    %row = tile.region %O[%bx, 0] : !tile.buffer<[N, 64], f32, global> to !tile.buffer<[1, 64], f32, global>
    %frag = tile.alloc : !tile.buffer<[64], f32, local.fragment>
    tile.atomic_add %row, %frag : !tile.buffer<[1, 64], f32, global>, !tile.buffer<[64], f32, local.fragment>
    %sh = tile.alloc : !tile.buffer<[64], f32, shared.dyn>
    tile.cumsum %sh to %sh dim = 0 reverse : !tile.buffer<[64], f32, shared.dyn> to !tile.buffer<[64], f32, shared.dyn>
    tile.cumsum %sh to %sh dim = 0 : !tile.buffer<[64], f32, shared.dyn> to !tile.buffer<[64], f32, shared.dyn>
    %kk = tile.load %v[] : !tile.buffer<[1], i32, local.var>
    tile.print "acc" %frag : !tile.buffer<[64], f32, local.fragment>
    tile.print "k" %kk : i32
    tile.print "here"
    tile.pipelined %k = %c0 to %c4 stages 2 order [0, 1, 2] stage [-1, 0, 1] {
    }
  }
}

//===----------------------------------------------------------------------===//
// Global allocation between two kernels, gemm variants, SSA names
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tile.func @two_kernels(
// CHECK: %[[W:.*]] = tile.alloc : !tile.buffer<[64, 64], f32, global>
// CHECK: tile.kernel
// CHECK:   tile.gemm %{{.*}}, %{{.*}}, %{{.*}} {clear_accum, policy = #tile<policy full_col>, transpose_a, transpose_b, wg_wait = -1 : i64} : !tile.buffer<[1, 32, 64], f16, shared.dyn>, !tile.buffer<[64, 32], f16, local.fragment>, !tile.buffer<[64, 64], f32, local.fragment>
// CHECK:   tile.gemm %{{.*}}, %{{.*}}, %{{.*}} : !tile.buffer<[64, 32], i8, shared>, !tile.buffer<[32, 64], i8, shared>, !tile.buffer<[64, 64], i32, local.fragment>
// CHECK:   tile.copy %{{.*}} to %[[W]]
// CHECK: tile.kernel
// CHECK:   tile.copy %[[W]] to
// NAMES-LABEL: tile.func @two_kernels(
// NAMES-SAME: %A: !tile.buffer<[64, 64], f32, global>
// NAMES: %workspace = tile.alloc : !tile.buffer<[64, 64], f32, global>
// NAMES: tile.kernel (%bx) grid [1] threads [128] {
// NAMES:   %A_s = tile.alloc : !tile.buffer<[1, 32, 64], f16, shared.dyn>
tile.func @two_kernels(%A: !tile.buffer<[64, 64], f32, global> loc("A")) {
  %w = tile.alloc : !tile.buffer<[64, 64], f32, global> loc("workspace")
  tile.kernel (%bx) grid [1] threads [128] {
    %a = tile.alloc : !tile.buffer<[1, 32, 64], f16, shared.dyn> loc("A_s")
    %b = tile.alloc : !tile.buffer<[64, 32], f16, local.fragment>
    %c = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    tile.gemm %a, %b, %c {transpose_a, transpose_b, clear_accum, policy = #tile<policy full_col>, wg_wait = -1 : i64} : !tile.buffer<[1, 32, 64], f16, shared.dyn>, !tile.buffer<[64, 32], f16, local.fragment>, !tile.buffer<[64, 64], f32, local.fragment>
    %ia = tile.alloc : !tile.buffer<[64, 32], i8, shared>
    %ib = tile.alloc : !tile.buffer<[32, 64], i8, shared>
    %ic = tile.alloc : !tile.buffer<[64, 64], i32, local.fragment>
    tile.gemm %ia, %ib, %ic : !tile.buffer<[64, 32], i8, shared>, !tile.buffer<[32, 64], i8, shared>, !tile.buffer<[64, 64], i32, local.fragment>
    tile.copy %c to %w : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, global>
  }
  tile.kernel (%bx2) grid [1] threads [128] {
    %s = tile.alloc : !tile.buffer<[64, 64], f32, shared.dyn>
    tile.copy %w to %s : !tile.buffer<[64, 64], f32, global> to !tile.buffer<[64, 64], f32, shared.dyn>
  }
}

// A region may extend past the end of its source (guarded elements).
// CHECK-LABEL: tile.func @overhanging_region(
// CHECK: tile.region %{{.*}}[0, 56] : !tile.buffer<[64, 64], f32, global> to !tile.buffer<[16, 16], f32, global>
// CHECK: tile.region %{{.*}}[%{{.*}}, 0] : !tile.buffer<[64, 64], f32, global> to !tile.buffer<[128, 16], f32, global>
tile.func @overhanging_region(%A: !tile.buffer<[64, 64], f32, global>, %i: index) {
  %0 = tile.region %A[0, 56] : !tile.buffer<[64, 64], f32, global> to !tile.buffer<[16, 16], f32, global>
  %1 = tile.region %A[%i, 0] : !tile.buffer<[64, 64], f32, global> to !tile.buffer<[128, 16], f32, global>
}

// Empty bodies round-trip as empty blocks; extents may be values.
// CHECK-LABEL: tile.func @empty_bodies(
// CHECK: tile.kernel (%{{.*}}, %{{.*}}, %{{.*}}) grid [1, %[[T:.*]], 3] threads [%[[T]], 2] {
// CHECK-NEXT: tile.if %{{.*}} {
// CHECK-NEXT: } else {
// CHECK-NEXT: }
// CHECK-NEXT: tile.while {
// CHECK-NEXT: tile.condition
// CHECK-NEXT: } do {
// CHECK-NEXT: }
// CHECK-NEXT: }
tile.func @empty_bodies(%t: index, %c: i1) {
  tile.kernel (%x, %y, %z) grid [1, %t, 3] threads [%t, 2] {
    tile.if %c {} else {}
    tile.while {
      tile.condition %c
    } do {}
  }
}

// A while nested in a while's body: its own condition ends its own
// condition region.
// CHECK-LABEL: tile.func @nested_while(
// CHECK: tile.while {
// CHECK-NEXT: tile.condition
// CHECK-NEXT: } do {
// CHECK-NEXT: tile.while {
// CHECK-NEXT: tile.condition
// CHECK-NEXT: } do {
// CHECK-NEXT: }
// CHECK-NEXT: }
tile.func @nested_while(%c: i1, %d: i1) {
  tile.kernel (%x) grid [1] threads [32] {
    tile.while {
      tile.condition %c
    } do {
      tile.while {
        tile.condition %d
      } do {}
    }
  }
}

// CHECK-LABEL: tile.func private @decl(
// CHECK-NOT: {
tile.func private @decl(%a: !tile.buffer<[4], f32, global>)

// CHECK-LABEL: tile.func @intrinsics(
// CHECK: %{{.*}} = tile.intrinsic "T.shfl_xor"(%{{.*}}, %{{.*}}) {params = ["value", "delta"]} : (f32, i32) -> f32
// CHECK: tile.intrinsic "T.mbarrier_wait_parity"(%{{.*}}, %{{.*}}) {options = {scope = "cta"}, params = ["mbarrier", "parity"]} : (!tile.buffer<[1], ui64, shared.barrier>, i32) -> ()
// CHECK: tile.intrinsic "T.fence_proxy_async"() : () -> ()
// CHECK: %{{.*}} = tile.intrinsic "tlc.unknown_value"() {options = {what = "torch tensor"}} : () -> f32
// CHECK: tile.intrinsic "tlc.unmodelled_call"(%{{.*}}) {options = {what = "emitter.mma"}, params = ["arg0"]} : (!tile.buffer<[1], ui64, shared.barrier>) -> ()
tile.func @intrinsics(%v: f32, %d: i32, %p: i32) {
  tile.kernel (%x) grid [1] threads [128] {
    %bar = tile.alloc {arrive_counts = array<i64: 128>} : !tile.buffer<[1], ui64, shared.barrier>
    %r = tile.intrinsic "T.shfl_xor"(%v, %d) {params = ["value", "delta"]} : (f32, i32) -> f32
    tile.intrinsic "T.mbarrier_wait_parity"(%bar, %p) {params = ["mbarrier", "parity"], options = {scope = "cta"}} : (!tile.buffer<[1], ui64, shared.barrier>, i32) -> ()
    tile.intrinsic "T.fence_proxy_async"() : () -> ()
    %u = tile.intrinsic "tlc.unknown_value"() {options = {what = "torch tensor"}} : () -> f32
    tile.intrinsic "tlc.unmodelled_call"(%bar) {params = ["arg0"], options = {what = "emitter.mma"}} : (!tile.buffer<[1], ui64, shared.barrier>) -> ()
  }
}

// CHECK-LABEL: tile.func @pointer_views(
// CHECK: %{{.*}} = tile.make_tensor %{{.*}} : i64 -> !tile.buffer<[M, 128], f16, global>
// CHECK: %{{.*}} = tile.view %{{.*}} : !tile.buffer<[64, 64], f16, shared.dyn> to !tile.buffer<[4096], f16, shared.dyn>
// CHECK: %{{.*}} = tile.view %{{.*}} : !tile.buffer<[64, 64], f16, shared.dyn> to !tile.buffer<[64, 32], i32, shared.dyn>
tile.func @pointer_views(%p: i64) symbols(M: dynamic) {
  %t = tile.make_tensor %p : i64 -> !tile.buffer<[M, 128], f16, global>
  tile.kernel (%x) grid [1] threads [128] {
    %s = tile.alloc : !tile.buffer<[64, 64], f16, shared.dyn>
    %flat = tile.view %s : !tile.buffer<[64, 64], f16, shared.dyn> to !tile.buffer<[4096], f16, shared.dyn>
    %words = tile.view %s : !tile.buffer<[64, 64], f16, shared.dyn> to !tile.buffer<[64, 32], i32, shared.dyn>
  }
}

// A T.Parallel may fill a thread's own buffers (local, local.var): each
// iteration fills its thread's copy (TileLang's custom 2:4 compressor
// clears its per-thread counters so).
// CHECK-LABEL: tile.func @parallel_local_fill(
// CHECK: tile.parallel (%{{.*}}) in [64] {
// CHECK-NEXT: tile.clear %{{.*}} : !tile.buffer<[1], i8, local>
// CHECK-NEXT: tile.fill %{{.*}}, %{{.*}} : !tile.buffer<[4], i8, local>
tile.func @parallel_local_fill(%z: i8) {
  tile.kernel (%x) grid [1] threads [128] {
    %cnt = tile.alloc : !tile.buffer<[1], i8, local>
    %idx = tile.alloc : !tile.buffer<[4], i8, local>
    tile.parallel (%i) in [64] {
      tile.clear %cnt : !tile.buffer<[1], i8, local>
      tile.fill %idx, %z : !tile.buffer<[4], i8, local>
    }
  }
}

// A function that launches no kernel (TVMScript-level code, such as
// TileLang's dtype printing tests) may allocate on-chip buffers; a grid of
// zero blocks launches nothing (`T.Kernel(0)`).
// CHECK-LABEL: tile.func @no_kernel_allocs(
// CHECK: tile.alloc : !tile.buffer<[1], i1, shared>
// CHECK: tile.alloc : !tile.buffer<[1], i32, local.var>
tile.func @no_kernel_allocs() {
  %0 = tile.alloc : !tile.buffer<[1], i1, shared>
  %1 = tile.alloc : !tile.buffer<[1], i32, local.var>
}

// CHECK-LABEL: tile.func @empty_grid(
// CHECK: tile.kernel (%{{.*}}) grid [0] threads [1] {
tile.func @empty_grid() {
  tile.kernel (%x) grid [0] threads [1] {
  }
}

// Blackwell's CTA pair: each CTA's B holds half the accumulator's columns.
// CHECK-LABEL: tile.func @gemm_cta_pair(
// CHECK: tile.gemm
tile.func @gemm_cta_pair() {
  tile.kernel (%x) grid [2] threads [128] {
    %a = tile.alloc : !tile.buffer<[128, 64], bf16, shared.dyn>
    %b = tile.alloc : !tile.buffer<[64, 128], bf16, shared.dyn>
    %c = tile.alloc : !tile.buffer<[128, 256], f32, local.fragment>
    tile.gemm %a, %b, %c {tile.use_2cta} : !tile.buffer<[128, 64], bf16, shared.dyn>, !tile.buffer<[64, 128], bf16, shared.dyn>, !tile.buffer<[128, 256], f32, local.fragment>
  }
}
