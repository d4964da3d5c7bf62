// RUN: tlc-opt --tile-plan-pipeline-waits=target=cuda:sm_80 --split-input-file %s | FileCheck %s
// RUN: tlc-opt --tile-plan-pipeline-waits=target=hip:gfx942 --split-input-file %s | FileCheck %s --check-prefix=HIP
// RUN: tlc-opt --tile-plan-pipeline-waits=target=cpu --split-input-file %s | FileCheck %s --check-prefix=NONE
// RUN: tlc-opt --tile-plan-pipeline-waits --split-input-file %s | FileCheck %s --check-prefix=NONE
// In the GPU pipeline: examples/gemm.py's 3-stage loop of cp.async copies
// waits with one group in flight; on sm_90a with K = 100 (no TMA: rows of
// 200 bytes) its wgmma reads the stages, so the barrier also fences the
// async proxy; on sm_80 (mma.sync) it does not; HIP's producers are plain
// loads (no count).
// RUN: tlc-build %examples/gemm.py --target=cuda:sm_90a --emit=lowered -D M=256 -D N=256 -D K=100 | FileCheck %s --check-prefix=WGMMA
// RUN: tlc-build %examples/gemm.py --target=cuda:sm_80 --emit=lowered -D M=256 -D N=256 -D K=100 | FileCheck %s --check-prefix=MMA
// RUN: tlc-build %examples/gemm.py --target=hip:gfx942 --emit=lowered -D M=256 -D N=256 -D K=100 | FileCheck %s --check-prefix=LDS
// WGMMA: module attributes {{{.*}}tile.pipeline_waits_planned
// WGMMA: tile.pipelined {{.*}} attributes {tile.async_proxy_fence, tile.async_wait = 1 : i64, tile.stages = 3 : i64}
// MMA: module attributes {{{.*}}tile.pipeline_waits_planned
// MMA: tile.pipelined {{.*}} attributes {tile.async_wait = 1 : i64, tile.stages = 3 : i64}
// LDS: module attributes {{{.*}}tile.pipeline_waits_planned
// LDS: tile.pipelined {{.*}} attributes {tile.stages = 3 : i64}

// Without a GPU target nothing is planned.
// NONE-NOT: tile.async_wait
// NONE-NOT: tile.async_proxy_fence
// NONE-NOT: tile.pipeline_waits_planned

// S stages: S - 1 groups committed ahead, the oldest the iteration's own,
// S - 2 left in flight. No async-proxy reader: no fence. On HIP, no
// count.
// CHECK: module attributes {tile.pipeline_waits_planned}
// CHECK-LABEL: tile.func @three_stages
// CHECK: tile.pipelined {{.*}} attributes {tile.async_wait = 1 : i64, tile.stages = 3 : i64}
// CHECK-LABEL: tile.func @four_stages_wgmma
// CHECK: tile.pipelined {{.*}} attributes {tile.async_proxy_fence, tile.async_wait = 2 : i64, tile.stages = 4 : i64}
// HIP: module attributes {tile.pipeline_waits_planned}
// HIP-LABEL: tile.func @three_stages
// HIP: tile.pipelined {{.*}} attributes {tile.stages = 3 : i64}
// HIP-LABEL: tile.func @four_stages_wgmma
// HIP: tile.pipelined {{.*}} attributes {tile.async_proxy_fence, tile.stages = 4 : i64}
tile.func @three_stages(%A: !tile.buffer<[256, 32], f16, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %s = tile.alloc {tile.stages = 3 : i64} : !tile.buffer<[32, 32], f16, shared.dyn>
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    tile.pipelined %k = %c0 to %c8 stages 3 attributes {tile.stages = 3 : i64} {
      %a = tile.region %A[%k, %c0] : !tile.buffer<[256, 32], f16, global> to !tile.buffer<[32, 32], f16, global>
      tile.copy %a to %s {tile.prefetch = 0 : i64} : !tile.buffer<[32, 32], f16, global> to !tile.buffer<[32, 32], f16, shared.dyn>
    }
  }
}
tile.func @four_stages_wgmma(%A: !tile.buffer<[512, 64], f16, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %s = tile.alloc {tile.stages = 4 : i64} : !tile.buffer<[64, 64], f16, shared.dyn>
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    tile.pipelined %k = %c0 to %c8 stages 4 attributes {tile.stages = 4 : i64} {
      %a = tile.region %A[%k, %c0] : !tile.buffer<[512, 64], f16, global> to !tile.buffer<[64, 64], f16, global>
      tile.copy %a to %s {tile.prefetch = 0 : i64} : !tile.buffer<[64, 64], f16, global> to !tile.buffer<[64, 64], f16, shared.dyn>
      tile.gemm %s, %s, %acc {tile.instr = "wgmma"} : !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    }
  }
}

// -----

// Loops the printer waits for otherwise: TMA producers (mbarriers), the
// consumer loop of a warp-specialised kernel (its rings), a loop that is
// not multi-buffered (no tile.stages): no plan.
// CHECK-LABEL: tile.func @tma
// CHECK-NOT: tile.async_wait
// CHECK-LABEL: tile.func @ws_consumer
// CHECK-NOT: tile.async_wait
// CHECK-LABEL: tile.func @serial
// CHECK-NOT: tile.async_wait
tile.func @tma(%A: !tile.buffer<[256, 32], f16, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %s = tile.alloc {tile.stages = 3 : i64} : !tile.buffer<[32, 32], f16, shared.dyn>
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    tile.pipelined %k = %c0 to %c8 stages 3 attributes {tile.stages = 3 : i64, tile.tma_barriers = 6144 : i64} {
      %a = tile.region %A[%k, %c0] : !tile.buffer<[256, 32], f16, global> to !tile.buffer<[32, 32], f16, global>
      tile.copy %a to %s {tile.prefetch = 0 : i64} : !tile.buffer<[32, 32], f16, global> to !tile.buffer<[32, 32], f16, shared.dyn>
    }
  }
}
tile.func @ws_consumer(%A: !tile.buffer<[256, 32], f16, global>) {
  tile.kernel (%bx) grid [1] threads [128] attributes {tile.ws_producer_threads = 128 : i64} {
    %s = tile.alloc {tile.stages = 3 : i64} : !tile.buffer<[32, 32], f16, shared.dyn>
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    tile.pipelined %k = %c0 to %c8 stages 3 attributes {tile.stages = 3 : i64, tile.ws_empty_barriers = 6168 : i64} {
      %a = tile.region %A[%k, %c0] : !tile.buffer<[256, 32], f16, global> to !tile.buffer<[32, 32], f16, global>
      tile.copy %a to %s {tile.prefetch = 0 : i64} : !tile.buffer<[32, 32], f16, global> to !tile.buffer<[32, 32], f16, shared.dyn>
    }
  }
}
tile.func @serial(%A: !tile.buffer<[256, 32], f16, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %s = tile.alloc : !tile.buffer<[32, 32], f16, shared.dyn>
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    tile.pipelined %k = %c0 to %c8 stages 3 {
      %a = tile.region %A[%k, %c0] : !tile.buffer<[256, 32], f16, global> to !tile.buffer<[32, 32], f16, global>
      tile.copy %a to %s : !tile.buffer<[32, 32], f16, global> to !tile.buffer<[32, 32], f16, shared.dyn>
    }
  }
}
