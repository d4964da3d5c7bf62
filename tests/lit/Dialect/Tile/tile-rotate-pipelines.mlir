// RUN: tlc-opt --tile-rotate-pipelines --split-input-file --verify-diagnostics %s | FileCheck %s

// The rotated accumulator: the gemm (stage 3, ordered second) accumulates
// the tile of iteration k - 3 before the scaling (stage 2) of iteration
// k - 2 in step k. The loop becomes the serial loop over the steps
// [0, n + 3); A_s, written in stage 0 and read in stage 3 by a statement
// ordered after the copy, has 4 versions (3 new allocations), chosen by
// (iteration - lb) mod 4; acc keeps one.
// CHECK-LABEL: tile.func @rotated_accumulator
// CHECK: %[[A0:.*]] = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
// CHECK-NEXT: %[[A1:.*]] = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
// CHECK-NEXT: %[[A2:.*]] = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
// CHECK-NEXT: %[[A3:.*]] = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
// CHECK-NEXT: %[[B:.*]] = tile.alloc : !tile.buffer<[32, 64], f16, shared.dyn>
// CHECK-NEXT: %[[ACC:.*]] = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
// CHECK-NOT: tile.alloc
// CHECK-NOT: tile.pipelined
// CHECK: %[[END:.*]] = arith.addi %[[N:.*]], %[[C3:.*]] : index
// CHECK: tile.for %[[K:.*]] = %[[LB:.*]] to %[[END]] step %{{.*}} attributes {tile.rotated_stages = 4 : i64} {
// Step k, order 0: the copy of iteration k.
// CHECK: %[[IN0:.*]] = arith.andi
// CHECK: tile.if %[[IN0]] {
// CHECK: %[[PH0:.*]] = arith.remsi
// CHECK: tile.if
// CHECK: %[[T0:.*]] = tile.region %{{.*}}[0, %{{.*}}]
// CHECK-NEXT: tile.copy %[[T0]] to %[[A0]]
// CHECK: tile.if
// CHECK: tile.copy %{{.*}} to %[[A1]]
// CHECK: tile.if
// CHECK: tile.copy %{{.*}} to %[[A2]]
// CHECK: tile.if
// CHECK: tile.copy %{{.*}} to %[[A3]]
// Order 1: the gemm of iteration k - 3.
// CHECK: %[[J3:.*]] = arith.subi %[[K]], %{{.*}} : index
// CHECK-DAG: arith.cmpi sge, %[[J3]], %[[LB]] : index
// CHECK-DAG: arith.cmpi slt, %[[J3]], %[[N]] : index
// CHECK: tile.if
// CHECK: tile.gemm %[[A0]], %[[B]], %[[ACC]]
// CHECK: tile.gemm %[[A1]], %[[B]], %[[ACC]]
// CHECK: tile.gemm %[[A2]], %[[B]], %[[ACC]]
// CHECK: tile.gemm %[[A3]], %[[B]], %[[ACC]]
// Order 2: the scaling of iteration k - 2.
// CHECK: tile.parallel
// CHECK-NOT: tile.parallel
// CHECK: tile.copy %[[ACC]] to %{{.*}}
tile.func @rotated_accumulator(%A: !tile.buffer<[64, 256], f16, global>, %Bg: !tile.buffer<[32, 64], f16, global>, %C: !tile.buffer<[64, 64], f32, global>, %n: index) {
  tile.kernel (%bx) grid [1] threads [128] {
    %A_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %B_s = tile.alloc : !tile.buffer<[32, 64], f16, shared.dyn>
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    tile.clear %acc : !tile.buffer<[64, 64], f32, local.fragment>
    tile.copy %Bg to %B_s : !tile.buffer<[32, 64], f16, global> to !tile.buffer<[32, 64], f16, shared.dyn>
    %c0 = arith.constant 0 : index
    tile.pipelined %k = %c0 to %n stages 4 order [0, 1, 2] stage [0, 3, 2] {
      %c32 = arith.constant 32 : index
      %kk = arith.muli %k, %c32 : index
      %At = tile.region %A[0, %kk] : !tile.buffer<[64, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %At to %A_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      tile.gemm %A_s, %B_s, %acc : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[32, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
      tile.parallel (%i, %j) in [64, 64] {
        %x = tile.load %acc[%i, %j] : !tile.buffer<[64, 64], f32, local.fragment>
        %h = arith.constant 5.000000e-01 : f32
        %y = arith.mulf %x, %h : f32
        tile.store %y, %acc[%i, %j] : !tile.buffer<[64, 64], f32, local.fragment>
      }
    }
    tile.copy %acc to %C : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, global>
  }
}

// -----

// Copies in stage 0, the gemm in stage 1, in either order: the rotated
// schedule equals the program order (A_s is written whole by one copy
// before the gemm reads it; order [2, 1, 0] needs one version, [0, 1, 2]
// two), so the loops are left to tile-plan-pipelines.
// CHECK-LABEL: tile.func @program_order_kept
// CHECK: tile.pipelined %{{.*}} stages 2 order [0, 1, 2] stage [0, 0, 1] {
// CHECK: tile.pipelined %{{.*}} stages 2 order [2, 1, 0] stage [0, 0, 1] {
// CHECK-NOT: tile.for
tile.func @program_order_kept(%A: !tile.buffer<[64, 256], f16, global>, %B: !tile.buffer<[256, 64], f16, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %A_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %B_s = tile.alloc : !tile.buffer<[32, 64], f16, shared.dyn>
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    tile.pipelined %k = %c0 to %c8 stages 2 order [0, 1, 2] stage [0, 0, 1] {
      %kk = arith.muli %k, %c32 : index
      %At = tile.region %A[0, %kk] : !tile.buffer<[64, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %At to %A_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      %Bt = tile.region %B[%kk, 0] : !tile.buffer<[256, 64], f16, global> to !tile.buffer<[32, 64], f16, global>
      tile.copy %Bt to %B_s : !tile.buffer<[32, 64], f16, global> to !tile.buffer<[32, 64], f16, shared.dyn>
      tile.gemm %A_s, %B_s, %acc : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[32, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    }
    tile.pipelined %k = %c0 to %c8 stages 2 order [2, 1, 0] stage [0, 0, 1] {
      %kk = arith.muli %k, %c32 : index
      %At = tile.region %A[0, %kk] : !tile.buffer<[64, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %At to %A_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      %Bt = tile.region %B[%kk, 0] : !tile.buffer<[256, 64], f16, global> to !tile.buffer<[32, 64], f16, global>
      tile.copy %Bt to %B_s : !tile.buffer<[32, 64], f16, global> to !tile.buffer<[32, 64], f16, shared.dyn>
      tile.gemm %A_s, %B_s, %acc : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[32, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    }
  }
}

// -----

// A T.Parallel that stores every element of A_s (TileLang's mixed
// Parallel / Pipelined test) writes it whole too: left alone. One that
// skips elements of A_t (half the rows) is not known to, and that loop is
// rewritten (exactly: the rewrite needs no such proof).
// CHECK-LABEL: tile.func @parallel_producer
// CHECK: tile.pipelined %{{.*}} stages 2 order [0, 1] stage [0, 1] {
// CHECK: tile.for %{{.*}} attributes {tile.rotated_stages = 2 : i64}
tile.func @parallel_producer(%A: !tile.buffer<[64, 256], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %A_s = tile.alloc : !tile.buffer<[64, 32], f32, shared.dyn>
    %A_t = tile.alloc : !tile.buffer<[64, 32], f32, shared.dyn>
    %acc = tile.alloc : !tile.buffer<[64, 32], f32, local.fragment>
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    tile.pipelined %k = %c0 to %c8 stages 2 order [0, 1] stage [0, 1] {
      %kk = arith.muli %k, %c32 : index
      tile.parallel (%i, %j) in [64, 32] {
        %col = arith.addi %kk, %j : index
        %x = tile.load %A[%i, %col] : !tile.buffer<[64, 256], f32, global>
        tile.store %x, %A_s[%i, %j] : !tile.buffer<[64, 32], f32, shared.dyn>
      }
      tile.copy %A_s to %acc : !tile.buffer<[64, 32], f32, shared.dyn> to !tile.buffer<[64, 32], f32, local.fragment>
    }
    tile.pipelined %k = %c0 to %c8 stages 2 order [0, 1] stage [0, 1] {
      %kk = arith.muli %k, %c32 : index
      tile.parallel (%i, %j) in [32, 32] {
        %col = arith.addi %kk, %j : index
        %x = tile.load %A[%i, %col] : !tile.buffer<[64, 256], f32, global>
        tile.store %x, %A_t[%i, %j] : !tile.buffer<[64, 32], f32, shared.dyn>
      }
      tile.copy %A_t to %acc : !tile.buffer<[64, 32], f32, shared.dyn> to !tile.buffer<[64, 32], f32, local.fragment>
    }
  }
}

// -----

// Two statements of one stage in reverse order that touch one fragment:
// the rotated schedule runs the scaling before the fill; no versions (the
// fragment has one: written and read in stage 0), no range guard is
// needed for them to be right but each statement still gets one.
// CHECK-LABEL: tile.func @same_stage_reordered
// CHECK: tile.for %{{.*}} attributes {tile.rotated_stages = 1 : i64} {
// CHECK: tile.parallel
// CHECK: tile.fill
tile.func @same_stage_reordered(%C: !tile.buffer<[64], f32, global>) {
  tile.kernel (%bx) grid [1] threads [64] {
    %f = tile.alloc : !tile.buffer<[64], f32, local.fragment>
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %one = arith.constant 1.000000e+00 : f32
    tile.pipelined %k = %c0 to %c4 stages 0 order [1, 0] stage [0, 0] {
      tile.fill %f, %one : !tile.buffer<[64], f32, local.fragment>
      tile.parallel (%i) in [64] {
        %x = tile.load %f[%i] : !tile.buffer<[64], f32, local.fragment>
        %y = arith.addf %x, %x : f32
        tile.store %y, %f[%i] : !tile.buffer<[64], f32, local.fragment>
      }
    }
    tile.copy %f to %C : !tile.buffer<[64], f32, local.fragment> to !tile.buffer<[64], f32, global>
  }
}

// -----

// Negative entries (TileLang's group / warp-specialisation lists) and lists
// of another length are not followed here (tile-plan-pipelines warns).
// CHECK-LABEL: tile.func @not_followed
// CHECK: tile.pipelined %{{.*}} order [-1, 0] stage [-1, 1]
// CHECK: tile.pipelined %{{.*}} order [1, 0, 2] stage [0, 1, 1]
tile.func @not_followed(%A: !tile.buffer<[64, 64], f16, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %a = tile.alloc : !tile.buffer<[64, 64], f16, shared.dyn>
    %c = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    tile.pipelined %k = %c0 to %c4 stages 2 order [-1, 0] stage [-1, 1] {
      tile.copy %A to %a : !tile.buffer<[64, 64], f16, global> to !tile.buffer<[64, 64], f16, shared.dyn>
      tile.gemm %a, %a, %c {transpose_b} : !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    }
    tile.pipelined %k = %c0 to %c4 stages 2 order [1, 0, 2] stage [0, 1, 1] {
      tile.copy %A to %a : !tile.buffer<[64, 64], f16, global> to !tile.buffer<[64, 64], f16, shared.dyn>
      tile.gemm %a, %a, %c {transpose_b} : !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    }
  }
}

// -----

// Two statements with one order value: an error at the loop.
// CHECK-LABEL: tile.func @same_order
// CHECK-SAME: tile.lowering_failed
tile.func @same_order(%C: !tile.buffer<[64], f32, global>) {
  tile.kernel (%bx) grid [1] threads [64] {
    %f = tile.alloc : !tile.buffer<[64], f32, local.fragment>
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %one = arith.constant 1.000000e+00 : f32
    // expected-error @+1 {{T.Pipelined: two statements have the same 'order' 0}}
    tile.pipelined %k = %c0 to %c4 stages 2 order [0, 0] stage [0, 1] {
      tile.fill %f, %one : !tile.buffer<[64], f32, local.fragment>
      tile.copy %f to %C : !tile.buffer<[64], f32, local.fragment> to !tile.buffer<[64], f32, global>
    }
  }
}

// -----

// A statement that uses the value another statement loads, in a loop that
// must be rotated: an error at the loop (TileLang keeps such scalar
// bindings in their consumer's stage).
// CHECK-LABEL: tile.func @value_across_statements
// CHECK-SAME: tile.lowering_failed
tile.func @value_across_statements(%C: !tile.buffer<[64], f32, global>) {
  tile.kernel (%bx) grid [1] threads [64] {
    %f = tile.alloc : !tile.buffer<[64], f32, local.fragment>
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    // expected-error @+1 {{T.Pipelined: a statement uses the value another statement computes; tlc cannot run this `stage`/`order` schedule}}
    tile.pipelined %k = %c0 to %c4 stages 2 order [0, 1, 2] stage [1, 0, 0] {
      %x = tile.load %f[%c0] : !tile.buffer<[64], f32, local.fragment>
      tile.fill %f, %x : !tile.buffer<[64], f32, local.fragment>
      tile.copy %f to %C : !tile.buffer<[64], f32, local.fragment> to !tile.buffer<[64], f32, global>
    }
  }
}
