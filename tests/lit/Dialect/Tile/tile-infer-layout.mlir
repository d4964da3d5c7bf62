// RUN: tlc-opt %s -split-input-file -verify-diagnostics --tile-infer-layout | FileCheck %s

// sm_80: mma.sync operands in swizzled shared memory, the accumulator as
// 2x2 warps of m16n8k16 tiles (PTX: lane 4 * (i % 8) + (j % 8) // 2).

// CHECK-LABEL: tile.func @gemm_sm80
// CHECK: tile.alloc {layout = #tile.layout<[128, 32], map = ["32 * i + 8 * (j // 8 ^ (i // 2) % 4) + j % 8"], kind = "swizzle 64B", bits = 16>}
// CHECK: tile.alloc {layout = #tile.layout<[32, 128], map = ["2048 * (j // 64) + 64 * i + 8 * ((j // 8) % 8 ^ i % 8) + j % 8"], kind = "swizzle 128B", bits = 16>}
// CHECK: tile.alloc {layout = #tile.fragment<[128, 128], thread = "64 * (j // 64) + 32 * (i // 64) + 4 * (i % 8) + (j // 2) % 4", index = ["32 * ((i // 16) % 4) + 4 * ((j // 8) % 8) + 2 * ((i // 8) % 2) + j % 2"], origin = "mma.C", warp_rows = 2, warp_cols = 2>}
module attributes {tile.target = "sm_80"} {
  tile.func @gemm_sm80() {
    tile.kernel (%bx) grid [1] threads [128] {
      %a = tile.alloc : !tile.buffer<[128, 32], f16, shared.dyn>
      %b = tile.alloc : !tile.buffer<[32, 128], f16, shared.dyn>
      %c = tile.alloc : !tile.buffer<[128, 128], f32, local.fragment>
      tile.gemm %a, %b, %c : !tile.buffer<[128, 32], f16, shared.dyn>, !tile.buffer<[32, 128], f16, shared.dyn>, !tile.buffer<[128, 128], f32, local.fragment>
    }
  }
}

// -----

// sm_90: wgmma; whole warpgroups along M (4x1 warps), 64 rows per atom.

// CHECK-LABEL: tile.func @gemm_sm90
// CHECK: kind = "swizzle 64B"
// CHECK: kind = "swizzle 128B"
// CHECK: #tile.fragment<[128, 128], thread = "{{.*}}", index = ["{{.*}}"], origin = "wgmma.C", warp_rows = 4, warp_cols = 1>
module attributes {tile.target = "sm_90a"} {
  tile.func @gemm_sm90() {
    tile.kernel (%bx) grid [1] threads [128] {
      %a = tile.alloc : !tile.buffer<[128, 32], f16, shared.dyn>
      %b = tile.alloc : !tile.buffer<[32, 128], f16, shared.dyn>
      %c = tile.alloc : !tile.buffer<[128, 128], f32, local.fragment>
      tile.gemm %a, %b, %c : !tile.buffer<[128, 32], f16, shared.dyn>, !tile.buffer<[32, 128], f16, shared.dyn>, !tile.buffer<[128, 128], f32, local.fragment>
    }
  }
}

// -----

// gfx90a: MFMA with wavefront 64; 256 threads are 4 wavefronts, each with
// a 32 x 32 tile of C: one v_mfma_f32_32x32x8f16 tile (mfma32.C).

// CHECK-LABEL: tile.func @gemm_gfx90a
// CHECK: #tile.fragment<[64, 64], thread = "{{.*}}", index = ["{{.*}}"], origin = "mfma32.C", warp_rows = 2, warp_cols = 2>
module attributes {tile.target = "gfx90a"} {
  tile.func @gemm_gfx90a() {
    tile.kernel (%bx) grid [1] threads [256] {
      %a = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
      %b = tile.alloc : !tile.buffer<[32, 64], f16, shared.dyn>
      %c = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
      tile.gemm %a, %b, %c : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[32, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    }
  }
}

// -----

// A T.Parallel epilogue over the accumulator takes the accumulator's
// layout; the fragment it writes gets the same map.

// CHECK-LABEL: tile.func @epilogue
// CHECK: %[[ACC:.*]] = tile.alloc {layout = #tile.fragment<[128, 128], thread = "[[THREAD:[^"]*]]", index = ["[[INDEX:[^"]*]]"], origin = "mma.C", warp_rows = 2, warp_cols = 2>}
// CHECK: tile.alloc {layout = #tile.fragment<[128, 128], thread = "[[THREAD]]", index = ["[[INDEX]]"], origin = "mma.C", warp_rows = 2, warp_cols = 2>} : !tile.buffer<[128, 128], f16, local.fragment>
// CHECK: tile.parallel
// CHECK-SAME: loop_layout = #tile.fragment<[128, 128], thread = "[[THREAD]]", index = ["[[INDEX]]"], origin = "mma.C", warp_rows = 2, warp_cols = 2>
module attributes {tile.target = "sm_80"} {
  tile.func @epilogue() {
    tile.kernel (%bx) grid [1] threads [128] {
      %a = tile.alloc : !tile.buffer<[128, 32], f16, shared.dyn>
      %b = tile.alloc : !tile.buffer<[32, 128], f16, shared.dyn>
      %c = tile.alloc : !tile.buffer<[128, 128], f32, local.fragment>
      %d = tile.alloc : !tile.buffer<[128, 128], f16, local.fragment>
      tile.gemm %a, %b, %c : !tile.buffer<[128, 32], f16, shared.dyn>, !tile.buffer<[32, 128], f16, shared.dyn>, !tile.buffer<[128, 128], f32, local.fragment>
      tile.parallel (%i, %j) in [128, 128] {
        %x = tile.load %c[%i, %j] : !tile.buffer<[128, 128], f32, local.fragment>
        %y = arith.truncf %x : f32 to f16
        tile.store %y, %d[%i, %j] : !tile.buffer<[128, 128], f16, local.fragment>
      }
    }
  }
}

// -----

// A reduction over dim 1 of the accumulator: each row lives in the 4 lanes
// of a quad and in the 2 warps along N, so the row vector is replicated 8
// times; each thread keeps the 8 rows it held.

// CHECK-LABEL: tile.func @reduce_rows
// CHECK: tile.alloc {layout = #tile.fragment<[128], thread = "64 * (rep // 4) + 32 * (i // 64) + 4 * (i % 8) + rep % 4", index = ["(i // 8) % 8"], replicate = 8, origin = "mma.C row", warp_rows = 2, warp_cols = 2>}
module attributes {tile.target = "sm_80"} {
  tile.func @reduce_rows() {
    tile.kernel (%bx) grid [1] threads [128] {
      %a = tile.alloc : !tile.buffer<[128, 32], f16, shared.dyn>
      %b = tile.alloc : !tile.buffer<[32, 128], f16, shared.dyn>
      %c = tile.alloc : !tile.buffer<[128, 128], f32, local.fragment>
      %m = tile.alloc : !tile.buffer<[128], f32, local.fragment>
      tile.gemm %a, %b, %c : !tile.buffer<[128, 32], f16, shared.dyn>, !tile.buffer<[32, 128], f16, shared.dyn>, !tile.buffer<[128, 128], f32, local.fragment>
      tile.reduce max %c to %m dim = 1 clear : !tile.buffer<[128, 128], f32, local.fragment> to !tile.buffer<[128], f32, local.fragment>
    }
  }
}

// -----

// T.annotate_layout pins a shared layout; the gemm keeps it instead of
// picking its swizzle. Unconstrained shared buffers are row-major.

// CHECK-LABEL: tile.func @annotated
// CHECK: tile.alloc {layout = #tile.layout<[128, 32], map = ["40 * i + j"], kind = "padded", bits = 16, padding = 8>}
// CHECK: kind = "swizzle 128B"
// CHECK: tile.alloc {layout = #tile.layout<[64], map = ["i"], kind = "linear", bits = 32>}
module attributes {tile.target = "sm_80"} {
  tile.func @annotated() {
    tile.kernel (%bx) grid [1] threads [128] {
      %a = tile.alloc : !tile.buffer<[128, 32], f16, shared.dyn>
      %b = tile.alloc : !tile.buffer<[32, 128], f16, shared.dyn>
      %c = tile.alloc : !tile.buffer<[128, 128], f32, local.fragment>
      %s = tile.alloc : !tile.buffer<[64], f32, shared.dyn>
      tile.annotate_layout %a layout(#tile.layout<[128, 32], map = ["40 * i + j"], kind = "padded", bits = 16, padding = 8>) : !tile.buffer<[128, 32], f16, shared.dyn>
      tile.gemm %a, %b, %c : !tile.buffer<[128, 32], f16, shared.dyn>, !tile.buffer<[32, 128], f16, shared.dyn>, !tile.buffer<[128, 128], f32, local.fragment>
    }
  }
}

// -----

// Two gemms that partition one accumulator differently conflict: the error
// is on the second, with a note at the first.

module attributes {tile.target = "sm_80"} {
  tile.func @conflict() {
    tile.kernel (%bx) grid [1] threads [128] {
      %a = tile.alloc : !tile.buffer<[128, 32], f16, shared.dyn>
      %b = tile.alloc : !tile.buffer<[32, 128], f16, shared.dyn>
      %c = tile.alloc : !tile.buffer<[128, 128], f32, local.fragment>
      // expected-note @+1 {{'tile.gemm' gave 'buffer' the layout mma.C · 2×2 warps · 128 regs/thread here}}
      tile.gemm %a, %b, %c : !tile.buffer<[128, 32], f16, shared.dyn>, !tile.buffer<[32, 128], f16, shared.dyn>, !tile.buffer<[128, 128], f32, local.fragment>
      // expected-error @+1 {{layout conflict on 'buffer': 'tile.gemm' needs mma.C · 4×1 warps · 128 regs/thread, but 'tile.gemm' gave it mma.C · 2×2 warps · 128 regs/thread}}
      tile.gemm %a, %b, %c {policy = #tile<policy full_row>} : !tile.buffer<[128, 32], f16, shared.dyn>, !tile.buffer<[32, 128], f16, shared.dyn>, !tile.buffer<[128, 128], f32, local.fragment>
    }
  }
}

// -----

// A fragment indexed in a T.Parallel by a value the loop does not change
// (`lse[k, i]` inside a serial loop over k): the row is chosen when the
// kernel runs, so dim 0 stays whole in the registers of the thread of i
// (TileLang's layout for it). The reduction over dim 0 is then local to
// each thread and its result has the annotated row layout of %acc, which
// the loop also gives %m: no conflict (example_mha_inference.py's combine).

// CHECK-LABEL: tile.func @held_rows
// CHECK: tile.alloc {layout = #tile.fragment<[4, 64], thread = "j", index = ["i"]
// CHECK: tile.alloc {layout = #tile.fragment<[64], thread = "i", index = ["0"]
// CHECK: tile.alloc {layout = #tile.fragment<[64], thread = "i", index = ["0"]
// CHECK: tile.parallel (%{{.*}}) in [64] attributes {loop_layout = #tile.fragment<[64], thread = "i", index = ["0"]
module attributes {tile.target = "sm_90a"} {
  tile.func @held_rows() {
    tile.kernel (%bx) grid [1] threads [64] {
      %lse = tile.alloc : !tile.buffer<[4, 64], f32, local.fragment>
      %m = tile.alloc : !tile.buffer<[64], f32, local.fragment>
      %acc = tile.alloc : !tile.buffer<[64], f32, local.fragment>
      tile.annotate_layout %acc layout(#tile.fragment<[64], thread = "i", index = ["0"]>) : !tile.buffer<[64], f32, local.fragment>
      tile.reduce max %lse to %m dim = 0 clear : !tile.buffer<[4, 64], f32, local.fragment> to !tile.buffer<[64], f32, local.fragment>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      tile.for %k = %c0 to %c4 step %c1 {
        tile.parallel (%i) in [64] {
          %x = tile.load %lse[%k, %i] : !tile.buffer<[4, 64], f32, local.fragment>
          %y = tile.load %m[%i] : !tile.buffer<[64], f32, local.fragment>
          %z = arith.subf %x, %y : f32
          tile.store %z, %acc[%i] : !tile.buffer<[64], f32, local.fragment>
        }
      }
    }
  }
}
