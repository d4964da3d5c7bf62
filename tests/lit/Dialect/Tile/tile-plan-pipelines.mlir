// RUN: tlc-opt --tile-plan-pipelines --split-input-file --verify-diagnostics %s | FileCheck %s

// num_stages = 3 with two copies from global into whole shared buffers: both
// are producers (issued in program order) and both buffers get 3 stages.
// CHECK-LABEL: tile.func @default_plan
// CHECK: %[[A:.*]] = tile.alloc {tile.stages = 3 : i64}
// CHECK: %[[B:.*]] = tile.alloc {tile.stages = 3 : i64}
// CHECK: tile.pipelined {{.*}} stages 3 attributes {tile.stages = 3 : i64}
// CHECK: tile.copy {{.*}} to %[[A]] {tile.prefetch = 0 : i64}
// CHECK: tile.copy {{.*}} to %[[B]] {tile.prefetch = 1 : i64}
// CHECK: tile.gemm
tile.func @default_plan(%A: !tile.buffer<[256, 256], f16, global>, %B: !tile.buffer<[256, 256], f16, global>) {
  tile.kernel (%bx, %by) grid [4, 4] threads [128] {
    %A_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn> loc("A_s")
    %B_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn> loc("B_s")
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    tile.pipelined %k = %c0 to %c8 stages 3 {
      %kk = arith.muli %k, %c32 : index
      %At = tile.region %A[%c0, %kk] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %At to %A_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      %Bt = tile.region %B[%c0, %kk] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %Bt to %B_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      tile.gemm %A_s, %B_s, %acc {transpose_b} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    }
  }
}

// -----

// stage [0, 0, 1] runs the copies one iteration ahead (2 buffers, whatever
// num_stages says); order [1, 0, 2] issues B's copy first; order [2, 1, 0]
// would put them after the compute.
// CHECK-LABEL: tile.func @explicit_schedule
// CHECK: %[[A:.*]] = tile.alloc {tile.stages = 2 : i64}
// CHECK: %[[B:.*]] = tile.alloc {tile.stages = 2 : i64}
// CHECK: stage [0, 0, 1] attributes {tile.stages = 2 : i64}
// CHECK: tile.copy {{.*}} to %[[A]] {tile.prefetch = 1 : i64}
// CHECK: tile.copy {{.*}} to %[[B]] {tile.prefetch = 0 : i64}
// CHECK-LABEL: tile.func @copies_last
// CHECK: order [2, 1, 0] attributes {tile.producers_last, tile.stages = 3 : i64}
// CHECK: tile.copy {{.*}} {tile.prefetch = 1 : i64}
// CHECK: tile.copy {{.*}} {tile.prefetch = 0 : i64}
tile.func @explicit_schedule(%A: !tile.buffer<[256, 256], f16, global>, %B: !tile.buffer<[256, 256], f16, global>) {
  tile.kernel (%bx, %by) grid [4, 4] threads [128] {
    %A_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn> loc("A_s")
    %B_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn> loc("B_s")
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    tile.pipelined %k = %c0 to %c8 stages 3 order [1, 0, 2] stage [0, 0, 1] {
      %At = tile.region %A[%c0, %k] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %At to %A_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      %Bt = tile.region %B[%c0, %k] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %Bt to %B_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      tile.gemm %A_s, %B_s, %acc {transpose_b} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    }
  }
}
tile.func @copies_last(%A: !tile.buffer<[256, 256], f16, global>, %B: !tile.buffer<[256, 256], f16, global>) {
  tile.kernel (%bx, %by) grid [4, 4] threads [128] {
    %A_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn> loc("A_s")
    %B_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn> loc("B_s")
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    tile.pipelined %k = %c0 to %c8 stages 3 order [2, 1, 0] {
      %At = tile.region %A[%c0, %k] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %At to %A_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      %Bt = tile.region %B[%c0, %k] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %Bt to %B_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      tile.gemm %A_s, %B_s, %acc {transpose_b} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    }
  }
}

// -----

// Serial loops: the compute writes the buffer the copy fills; a copy whose
// source row is loaded from memory (data-dependent, not index arithmetic);
// num_stages = 1.
// CHECK-LABEL: tile.func @serial_loops
// CHECK-NOT: tile.stages
// CHECK-NOT: tile.prefetch
tile.func @serial_loops(%A: !tile.buffer<[256, 256], f16, global>, %Idx: !tile.buffer<[8], i32, global>) {
  tile.kernel (%bx) grid [4] threads [128] {
    %A_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0.0 : f16
    tile.pipelined %k = %c0 to %c8 stages 3 {
      %At = tile.region %A[%c0, %k] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %At to %A_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      tile.fill %A_s, %zero : !tile.buffer<[64, 32], f16, shared.dyn>
    }
    tile.pipelined %k = %c0 to %c8 stages 3 {
      %row = tile.load %Idx[%k] : !tile.buffer<[8], i32, global>
      %r = arith.index_cast %row : i32 to index
      %At = tile.region %A[%r, %c0] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %At to %A_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
    }
    tile.pipelined %k = %c0 to %c8 stages 1 {
      %At = tile.region %A[%c0, %k] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %At to %A_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
    }
  }
}

// -----

// Schedules the plan cannot honour are warnings on the loop, which is then
// planned as if the lists were absent (they schedule it; its results do not
// depend on them). Here the fill writes the buffer the copy would fill
// ahead, so the default plan keeps the loop serial.
// CHECK-LABEL: tile.func @bad_stage
// CHECK-NOT: tile.lowering_failed
// CHECK-NOT: tile.stages
// CHECK: // -----
tile.func @bad_stage(%A: !tile.buffer<[256, 256], f16, global>) {
  tile.kernel (%bx) grid [4] threads [128] {
    %A_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0.0 : f16
    // expected-warning @+1 {{T.Pipelined: statement 0 is in stage 0 but is not a copy from global into a whole shared buffer; tlc does not follow this schedule and plans the loop itself (num_stages = 2): the results are the same, the overlap may differ}}
    tile.pipelined %k = %c0 to %c8 stages 2 stage [0, 1] {
      tile.fill %A_s, %zero : !tile.buffer<[64, 32], f16, shared.dyn>
      %At = tile.region %A[%c0, %k] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %At to %A_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
    }
  }
}

// -----

// CHECK-LABEL: tile.func @bad_order
// CHECK-NOT: tile.lowering_failed
// CHECK-NOT: tile.stages
// CHECK: // -----
tile.func @bad_order(%A: !tile.buffer<[256, 256], f16, global>) {
  tile.kernel (%bx) grid [4] threads [128] {
    %A_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0.0 : f16
    // expected-warning @+1 {{T.Pipelined: 'order' must be a permutation of 0 .. 1; tlc does not follow this schedule}}
    tile.pipelined %k = %c0 to %c8 stages 2 order [0, 0] {
      %At = tile.region %A[%c0, %k] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %At to %A_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      tile.fill %A_s, %zero : !tile.buffer<[64, 32], f16, shared.dyn>
    }
  }
}

// -----

// Lists that number TileLang's statement groups (`group=`), not the
// statements, and stage -1: the default plan of num_stages = 3 (both copies
// three buffers deep, issued in program order).
// CHECK-LABEL: tile.func @grouped_schedule
// CHECK-NOT: tile.lowering_failed
// CHECK: %[[A:.*]] = tile.alloc {tile.stages = 3 : i64}
// CHECK: %[[B:.*]] = tile.alloc {tile.stages = 3 : i64}
// CHECK: attributes {tile.stages = 3 : i64}
// CHECK: tile.copy {{.*}} to %[[A]] {tile.prefetch = 0 : i64}
// CHECK: tile.copy {{.*}} to %[[B]] {tile.prefetch = 1 : i64}
tile.func @grouped_schedule(%A: !tile.buffer<[256, 256], f16, global>, %B: !tile.buffer<[256, 256], f16, global>) {
  tile.kernel (%bx, %by) grid [4, 4] threads [128] {
    %A_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %B_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    // expected-warning @+1 {{T.Pipelined: 'stage' and 'order' need one entry per statement of the loop body (3 here); tlc does not follow this schedule and plans the loop itself (num_stages = 3)}}
    tile.pipelined %k = %c0 to %c8 stages 3 order [-1, 0] stage [-1, 1] {
      %kk = arith.muli %k, %c32 : index
      %At = tile.region %A[%c0, %kk] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %At to %A_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      %Bt = tile.region %B[%c0, %kk] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %Bt to %B_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      tile.gemm %A_s, %B_s, %acc {transpose_b} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    }
  }
}
