// RUN: tlc-opt %s | tlc-opt | FileCheck %s
// RUN: tlc-opt %s --mlir-print-op-generic | tlc-opt | FileCheck %s

// Round trip of the cluster launch control ops (tile.clc_try_cancel,
// tile.clc_query); their verifier errors are in clc-invalid.mlir.

// CHECK-LABEL: tile.func @clc(
// CHECK: tile.clc_try_cancel %[[R:.*]], %[[B:.*]] : !tile.buffer<[4], ui32, shared>, !tile.buffer<[1], ui64, shared.barrier>
// CHECK: tile.clc_try_cancel multicast %[[ROW:.*]], %[[CB:.*]] : !tile.buffer<[1, 4], ui32, shared.dyn>, !tile.buffer<[1], ui64, shared.cluster_barrier>
// CHECK: %{{.*}} = tile.clc_query is_canceled %[[R]] : !tile.buffer<[4], ui32, shared> -> i1
// CHECK: %{{.*}} = tile.clc_query first_ctaid_x %[[R]] : !tile.buffer<[4], ui32, shared> -> i32
// CHECK: %{{.*}} = tile.clc_query first_ctaid_y %[[ROW]] : !tile.buffer<[1, 4], ui32, shared.dyn> -> i32
// CHECK: %{{.*}} = tile.clc_query first_ctaid_z %[[R]] : !tile.buffer<[4], ui32, shared> -> i32
tile.func @clc() {
  tile.kernel (%bx) grid [4] threads [128] attributes {cluster_dims = array<i64: 2, 1, 1>} {
    %r = tile.alloc : !tile.buffer<[4], ui32, shared>
    %bar = tile.alloc {arrive_counts = array<i64: 1>} : !tile.buffer<[1], ui64, shared.barrier>
    tile.clc_try_cancel %r, %bar : !tile.buffer<[4], ui32, shared>, !tile.buffer<[1], ui64, shared.barrier>
    %rs = tile.alloc : !tile.buffer<[2, 4], ui32, shared.dyn>
    %c1 = arith.constant 1 : index
    %row = tile.region %rs[%c1, 0] : !tile.buffer<[2, 4], ui32, shared.dyn> to !tile.buffer<[1, 4], ui32, shared.dyn>
    %cbs = tile.alloc {arrive_counts = array<i64: 1, 1>} : !tile.buffer<[2], ui64, shared.cluster_barrier>
    %cb = tile.region %cbs[%c1] : !tile.buffer<[2], ui64, shared.cluster_barrier> to !tile.buffer<[1], ui64, shared.cluster_barrier>
    tile.clc_try_cancel multicast %row, %cb : !tile.buffer<[1, 4], ui32, shared.dyn>, !tile.buffer<[1], ui64, shared.cluster_barrier>
    %ok = tile.clc_query is_canceled %r : !tile.buffer<[4], ui32, shared> -> i1
    %x = tile.clc_query first_ctaid_x %r : !tile.buffer<[4], ui32, shared> -> i32
    %y = tile.clc_query first_ctaid_y %row : !tile.buffer<[1, 4], ui32, shared.dyn> -> i32
    %z = tile.clc_query first_ctaid_z %r : !tile.buffer<[4], ui32, shared> -> i32
  }
}

// An mbarrier in a one-word shared uint64 buffer (upstream issue 2602's
// test: `mbarrier = T.alloc_shared((1,), T.uint64)`).
// CHECK-LABEL: tile.func @shared_word(
// CHECK: tile.clc_try_cancel %{{.*}}, %{{.*}} : !tile.buffer<[4], ui32, shared>, !tile.buffer<[1], ui64, shared>
tile.func @shared_word() {
  tile.kernel (%bx) grid [1] threads [1] {
    %r = tile.alloc : !tile.buffer<[4], ui32, shared>
    %b = tile.alloc : !tile.buffer<[1], ui64, shared>
    tile.clc_try_cancel %r, %b : !tile.buffer<[4], ui32, shared>, !tile.buffer<[1], ui64, shared>
  }
}
