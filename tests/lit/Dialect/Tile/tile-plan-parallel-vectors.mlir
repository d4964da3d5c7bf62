// RUN: tlc-opt --tile-plan-parallel-vectors=target=hip:gfx942 --split-input-file %s | FileCheck %s
// RUN: tlc-opt --tile-plan-parallel-vectors=target=cuda:sm_80 --split-input-file %s | FileCheck %s --check-prefix=CUDA
// RUN: tlc-opt --tile-plan-parallel-vectors=target=cpu --split-input-file %s | FileCheck %s --check-prefix=NONE
// RUN: tlc-opt --tile-plan-parallel-vectors --split-input-file %s | FileCheck %s --check-prefix=NONE
// In the GPU pipeline (after tile-plan-parallel-loops): the MFMA epilogue
// stores of Target/HIP/Inputs/epilogue_store.py are planned on HIP, 4
// elements a vector (a lane of the 32x32 C layout holds runs of 4
// columns), except in the loop whose body reads the tile (k_acc, last);
// on CUDA nothing is vectorised, but the module is planned. (tile.copy's
// own tile.vec is tile-plan-copies'.)
// RUN: tlc-build --emit=lowered --target=hip:gfx942 %S/../../Target/HIP/Inputs/epilogue_store.py | FileCheck %s --check-prefix=EPI
// RUN: tlc-build --emit=lowered --target=cuda:sm_80 %S/../../Target/HIP/Inputs/epilogue_store.py | FileCheck %s --check-prefix=EPICUDA
// EPI-COUNT-3: tile.store {{.*}} {tile.vec = 4 : i64, tile.vec_aligned} : !tile.buffer<[64, {{64|68|32}}], {{f32|f16}}, shared.dyn>
// EPI: tile.store %{{[0-9]+}}, %shared_1[%i, %j] : !tile.buffer<[64, 65], f32, shared.dyn>
// EPI: tile.store %{{[0-9]+}}, %shared_1[%i, %j] : !tile.buffer<[64, 64], f32, shared.dyn>
// EPI-NOT: tile.store {{.*}}tile.vec
// EPICUDA: tile.vectors_planned
// EPICUDA-NOT: tile.store {{.*}}tile.vec

// Without a GPU target nothing is planned.
// NONE-NOT: tile.vec
// CUDA-NOT: tile.vec =

// The CDNA 32x32 accumulator layout holds runs of 4 consecutive columns
// in consecutive registers: an f32 store of each run is one 16-byte
// vector, proven aligned (rows of 64 elements, loop variable j on the
// fragment's last dimension over multiples of 4).
// CHECK: module attributes {tile.vectors_planned}
// CHECK-LABEL: tile.func @mfma_epilogue
// CHECK: tile.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {tile.vec = 4 : i64, tile.vec_aligned} : !tile.buffer<[64, 64], f32, shared.dyn>
// CUDA: module attributes {tile.vectors_planned}
// CUDA-LABEL: tile.func @mfma_epilogue
tile.func @mfma_epilogue() {
  tile.kernel (%bx) grid [1] threads [256] {
    %C_s = tile.alloc : !tile.buffer<[64, 64], f32, shared.dyn>
    %acc = tile.alloc {layout = #tile.fragment<[64, 64], thread = "128 * (j // 32) + 64 * (i // 32) + 32 * ((j // 4) % 2) + i % 32", index = ["4 * ((j // 8) % 4) + j % 4"], origin = "mfma32.C", warp_rows = 2, warp_cols = 2>} : !tile.buffer<[64, 64], f32, local.fragment>
    tile.parallel (%i, %j) in [64, 64] {
      %x = tile.load %acc[%i, %j] : !tile.buffer<[64, 64], f32, local.fragment>
      tile.store %x, %C_s[%i, %j] : !tile.buffer<[64, 64], f32, shared.dyn>
    }
  }
}

// -----

// f16 out of the f32 accumulator: 4 halves are an 8-byte vector (rows of
// 68: 4 divides the row); a region at column offset 4 keeps the runs
// aligned, one at column offset 2 does not.
// CHECK-LABEL: tile.func @f16_and_regions
// CHECK: tile.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {tile.vec = 4 : i64, tile.vec_aligned} : !tile.buffer<[64, 68], f16, shared.dyn>
// CHECK: tile.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {tile.vec = 4 : i64, tile.vec_aligned} : !tile.buffer<[64, 64], f16, shared.dyn>
// CHECK: tile.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : !tile.buffer<[64, 64], f16, shared.dyn>
tile.func @f16_and_regions() {
  tile.kernel (%bx) grid [1] threads [256] {
    %C_s = tile.alloc : !tile.buffer<[64, 68], f16, shared.dyn>
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %at4 = tile.region %C_s[%c0, %c4] : !tile.buffer<[64, 68], f16, shared.dyn> to !tile.buffer<[64, 64], f16, shared.dyn>
    %at2 = tile.region %C_s[%c0, %c2] : !tile.buffer<[64, 68], f16, shared.dyn> to !tile.buffer<[64, 64], f16, shared.dyn>
    %acc = tile.alloc {layout = #tile.fragment<[64, 64], thread = "128 * (j // 32) + 64 * (i // 32) + 32 * ((j // 4) % 2) + i % 32", index = ["4 * ((j // 8) % 4) + j % 4"], origin = "mfma32.C", warp_rows = 2, warp_cols = 2>} : !tile.buffer<[64, 64], f32, local.fragment>
    tile.parallel (%i, %j) in [64, 64] {
      %x = tile.load %acc[%i, %j] : !tile.buffer<[64, 64], f32, local.fragment>
      %h = arith.truncf %x : f32 to f16
      tile.store %h, %C_s[%i, %j] : !tile.buffer<[64, 68], f16, shared.dyn>
    }
    tile.parallel (%i, %j) in [64, 64] {
      %x = tile.load %acc[%i, %j] : !tile.buffer<[64, 64], f32, local.fragment>
      %h = arith.truncf %x : f32 to f16
      tile.store %h, %at4[%i, %j] : !tile.buffer<[64, 64], f16, shared.dyn>
    }
    tile.parallel (%i, %j) in [64, 64] {
      %x = tile.load %acc[%i, %j] : !tile.buffer<[64, 64], f32, local.fragment>
      %h = arith.truncf %x : f32 to f16
      tile.store %h, %at2[%i, %j] : !tile.buffer<[64, 64], f16, shared.dyn>
    }
  }
}

// -----

// Element stores: rows of 65 (runs not aligned), a store at [j, i] (the
// fragment's last dimension is not the tile's), a body that reads the
// tile it stores, a store under a condition (not straight in the body),
// a store into global memory.
// CHECK-LABEL: tile.func @element_stores
// CHECK-NOT: tile.vec =
// CHECK: // -----
tile.func @element_stores(%G: !tile.buffer<[64, 64], f32, global>, %p: i1) {
  tile.kernel (%bx) grid [1] threads [256] {
    %odd = tile.alloc : !tile.buffer<[64, 65], f32, shared.dyn>
    %sq = tile.alloc : !tile.buffer<[64, 64], f32, shared.dyn>
    %acc = tile.alloc {layout = #tile.fragment<[64, 64], thread = "128 * (j // 32) + 64 * (i // 32) + 32 * ((j // 4) % 2) + i % 32", index = ["4 * ((j // 8) % 4) + j % 4"], origin = "mfma32.C", warp_rows = 2, warp_cols = 2>} : !tile.buffer<[64, 64], f32, local.fragment>
    tile.parallel (%i, %j) in [64, 64] {
      %x = tile.load %acc[%i, %j] : !tile.buffer<[64, 64], f32, local.fragment>
      tile.store %x, %odd[%i, %j] : !tile.buffer<[64, 65], f32, shared.dyn>
    }
    tile.parallel (%i, %j) in [64, 64] {
      %x = tile.load %acc[%i, %j] : !tile.buffer<[64, 64], f32, local.fragment>
      tile.store %x, %sq[%j, %i] : !tile.buffer<[64, 64], f32, shared.dyn>
    }
    tile.parallel (%i, %j) in [64, 64] {
      %x = tile.load %acc[%i, %j] : !tile.buffer<[64, 64], f32, local.fragment>
      %y = tile.load %sq[%i, %j] : !tile.buffer<[64, 64], f32, shared.dyn>
      %z = arith.addf %x, %y : f32
      tile.store %z, %sq[%i, %j] : !tile.buffer<[64, 64], f32, shared.dyn>
    }
    tile.parallel (%i, %j) in [64, 64] {
      %x = tile.load %acc[%i, %j] : !tile.buffer<[64, 64], f32, local.fragment>
      tile.if %p {
        tile.store %x, %sq[%i, %j] : !tile.buffer<[64, 64], f32, shared.dyn>
      }
    }
    tile.parallel (%i, %j) in [64, 64] {
      %x = tile.load %acc[%i, %j] : !tile.buffer<[64, 64], f32, local.fragment>
      tile.store %x, %G[%i, %j] : !tile.buffer<[64, 64], f32, global>
    }
  }
}

// -----

// A loop over a box of the fragment, and a fragment whose layout holds
// one element a run (the 32x32 layout's rows, i on the registers): element
// stores.
// CHECK-LABEL: tile.func @no_runs
// CHECK-NOT: tile.vec =
tile.func @no_runs() {
  tile.kernel (%bx) grid [1] threads [256] {
    %sq = tile.alloc : !tile.buffer<[64, 64], f32, shared.dyn>
    %acc = tile.alloc {layout = #tile.fragment<[64, 64], thread = "128 * (j // 32) + 64 * (i // 32) + 32 * ((j // 4) % 2) + i % 32", index = ["4 * ((j // 8) % 4) + j % 4"], origin = "mfma32.C", warp_rows = 2, warp_cols = 2>} : !tile.buffer<[64, 64], f32, local.fragment>
    %accT = tile.alloc {layout = #tile.fragment<[64, 64], thread = "128 * (i // 32) + 64 * (j // 32) + 32 * ((i // 4) % 2) + j % 32", index = ["4 * ((i // 8) % 4) + i % 4"], origin = "mfma32.C", warp_rows = 2, warp_cols = 2>} : !tile.buffer<[64, 64], f32, local.fragment>
    tile.parallel (%i, %j) in [32, 64] {
      %x = tile.load %acc[%i, %j] : !tile.buffer<[64, 64], f32, local.fragment>
      tile.store %x, %sq[%i, %j] : !tile.buffer<[64, 64], f32, shared.dyn>
    }
    tile.parallel (%i, %j) in [64, 64] {
      %x = tile.load %accT[%i, %j] : !tile.buffer<[64, 64], f32, local.fragment>
      tile.store %x, %sq[%i, %j] : !tile.buffer<[64, 64], f32, shared.dyn>
    }
  }
}

// -----

// The width follows the layout the printer follows: a kernel whose
// fragments tile-assign-fragment-layouts recorded (`tile.fragment_layout`,
// runs of 2 columns here) is planned by that record, not by layout
// inference's `layout` (the MFMA 32x32 accumulator's runs of 4), which the
// printer does not read; planned by `layout`, the printer refused the
// vectors of 4 ("holds 2 consecutive elements ... do not divide them").
// CHECK-LABEL: tile.func @recorded_layout
// CHECK: tile.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {tile.vec = 2 : i64, tile.vec_aligned} : !tile.buffer<[64, 64], f32, shared.dyn>
// CUDA-LABEL: tile.func @recorded_layout
tile.func @recorded_layout() {
  tile.kernel (%bx) grid [1] threads [256] attributes {tile.fragment_layouts_assigned} {
    %C_s = tile.alloc : !tile.buffer<[64, 64], f32, shared.dyn>
    %acc = tile.alloc {layout = #tile.fragment<[64, 64], thread = "128 * (j // 32) + 64 * (i // 32) + 32 * ((j // 4) % 2) + i % 32", index = ["4 * ((j // 8) % 4) + j % 4"], origin = "mfma32.C", warp_rows = 2, warp_cols = 2>, tile.fragment_layout = #tile.fragment<[64, 64], thread = "32 * (i % 8) + j // 2", index = ["2 * (i // 8) + j % 2"], origin = "parallel">} : !tile.buffer<[64, 64], f32, local.fragment>
    tile.parallel (%i, %j) in [64, 64] {
      %x = tile.load %acc[%i, %j] : !tile.buffer<[64, 64], f32, local.fragment>
      tile.store %x, %C_s[%i, %j] : !tile.buffer<[64, 64], f32, shared.dyn>
    }
  }
}
