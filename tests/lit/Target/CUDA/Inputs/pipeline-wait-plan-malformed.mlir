// Input of pipeline-wait-plan.mlir: pipeline wait plans the CUDA printer
// refuses, one function each (the error is on the loop; the other
// functions still print). On HIP (no cp.async) a loop with
// tile.async_wait is refused; the one without prints.
module attributes {tile.pipeline_waits_planned} {
// CHECK: w.py:11:9: error: malformed pipeline wait plan: a wait that leaves 2 cp.async groups in flight, not 0..1 (with 3 stages a larger count reads a stage before its copies land) (tile-plan-pipeline-waits)
// HIP: w.py:11:9: error: malformed pipeline wait plan: tile.async_wait on a loop whose producers are no cp.async copies (tile-plan-pipeline-waits)
tile.func @too_many(%A: !tile.buffer<[256, 256], f16, global>, %B: !tile.buffer<[256, 256], f16, global>) {
  tile.kernel (%bx, %by) grid [4, 4] threads [128] {
    %A_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %B_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    tile.pipelined %k = %c0 to %c8 stages 3 attributes {tile.async_wait = 2 : i64} {
      %y = arith.muli %by, %c64 : index
      %x = arith.muli %bx, %c64 : index
      %kk = arith.muli %k, %c32 : index
      %At = tile.region %A[%y, %kk] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %At to %A_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      %Bt = tile.region %B[%x, %kk] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %Bt to %B_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      tile.gemm %A_s, %B_s, %acc {transpose_b} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    } loc("w.py":11:9)
  }
}
// CHECK: w.py:12:9: error: malformed pipeline wait plan: a wait that leaves -1 cp.async groups in flight, not 0..1 (with 3 stages a larger count reads a stage before its copies land) (tile-plan-pipeline-waits)
// HIP: w.py:12:9: error: malformed pipeline wait plan: tile.async_wait on a loop whose producers are no cp.async copies (tile-plan-pipeline-waits)
tile.func @negative(%A: !tile.buffer<[256, 256], f16, global>, %B: !tile.buffer<[256, 256], f16, global>) {
  tile.kernel (%bx, %by) grid [4, 4] threads [128] {
    %A_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %B_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    tile.pipelined %k = %c0 to %c8 stages 3 attributes {tile.async_wait = -1 : i64} {
      %y = arith.muli %by, %c64 : index
      %x = arith.muli %bx, %c64 : index
      %kk = arith.muli %k, %c32 : index
      %At = tile.region %A[%y, %kk] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %At to %A_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      %Bt = tile.region %B[%x, %kk] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %Bt to %B_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      tile.gemm %A_s, %B_s, %acc {transpose_b} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    } loc("w.py":12:9)
  }
}
// CHECK: w.py:13:9: error: malformed pipeline wait plan: no tile.async_wait on a loop of cp.async producers (tile-plan-pipeline-waits)
tile.func @missing(%A: !tile.buffer<[256, 256], f16, global>, %B: !tile.buffer<[256, 256], f16, global>) {
  tile.kernel (%bx, %by) grid [4, 4] threads [128] {
    %A_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %B_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    tile.pipelined %k = %c0 to %c8 stages 3 {
      %y = arith.muli %by, %c64 : index
      %x = arith.muli %bx, %c64 : index
      %kk = arith.muli %k, %c32 : index
      %At = tile.region %A[%y, %kk] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %At to %A_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      %Bt = tile.region %B[%x, %kk] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %Bt to %B_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      tile.gemm %A_s, %B_s, %acc {transpose_b} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    } loc("w.py":13:9)
  }
}
// CHECK: w.py:14:9: error: malformed pipeline wait plan: tile.async_wait must be an integer (tile-plan-pipeline-waits)
// HIP: w.py:14:9: error: malformed pipeline wait plan: tile.async_wait must be an integer (tile-plan-pipeline-waits)
tile.func @not_integer(%A: !tile.buffer<[256, 256], f16, global>, %B: !tile.buffer<[256, 256], f16, global>) {
  tile.kernel (%bx, %by) grid [4, 4] threads [128] {
    %A_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %B_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    tile.pipelined %k = %c0 to %c8 stages 3 attributes {tile.async_wait = "one"} {
      %y = arith.muli %by, %c64 : index
      %x = arith.muli %bx, %c64 : index
      %kk = arith.muli %k, %c32 : index
      %At = tile.region %A[%y, %kk] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %At to %A_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      %Bt = tile.region %B[%x, %kk] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %Bt to %B_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      tile.gemm %A_s, %B_s, %acc {transpose_b} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    } loc("w.py":14:9)
  }
}
// CHECK: w.py:15:9: error: malformed pipeline wait plan: no tile.async_proxy_fence, but a wgmma or tcgen05 gemm of the kernel reads shared memory through the async proxy (tile-plan-pipeline-waits)
// HIP: w.py:15:9: error: malformed pipeline wait plan: tile.async_wait on a loop whose producers are no cp.async copies (tile-plan-pipeline-waits)
tile.func @no_fence(%A: !tile.buffer<[256, 256], f16, global>, %B: !tile.buffer<[256, 256], f16, global>) {
  tile.kernel (%bx, %by) grid [4, 4] threads [128] {
    %A_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %B_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    tile.pipelined %k = %c0 to %c8 stages 3 attributes {tile.async_wait = 1 : i64} {
      %y = arith.muli %by, %c64 : index
      %x = arith.muli %bx, %c64 : index
      %kk = arith.muli %k, %c32 : index
      %At = tile.region %A[%y, %kk] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %At to %A_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      %Bt = tile.region %B[%x, %kk] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %Bt to %B_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      tile.gemm %A_s, %B_s, %acc {transpose_b, tile.instr = "wgmma"} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    } loc("w.py":15:9)
  }
}
}
// CHECK-NOT: error
// HIP-NOT: error
// HIPOUT-NOT: _kernel(
// HIPOUT: missing_kernel(
// HIPOUT-NOT: _kernel(
