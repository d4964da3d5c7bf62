// RUN: tlc-opt --tile-plan-parallel-loops=target=cuda:sm_80 --split-input-file %s | FileCheck %s
// RUN: tlc-opt --tile-plan-parallel-loops=target=hip:gfx942 --split-input-file %s | FileCheck %s
// RUN: tlc-opt --tile-plan-parallel-loops=target=cpu --split-input-file %s | FileCheck %s --check-prefix=NONE
// RUN: tlc-opt --tile-plan-parallel-loops --split-input-file %s | FileCheck %s --check-prefix=NONE
// In the GPU pipeline (after tile-plan-copies): the flash attention
// example's loops over its score and accumulator fragments are planned
// on both targets.
// RUN: tlc-build --emit=lowered --target=cuda:sm_80 %examples/flash_attention_fwd.py | FileCheck %s --check-prefix=FA
// RUN: tlc-build --emit=lowered --target=hip:gfx942 %examples/flash_attention_fwd.py | FileCheck %s --check-prefix=FA
// FA: tile.parallel {{.*}}, tile.loop_dims = array<i64: 0, 1>, tile.partition = "fragment"}
// FA: {tile.partitions_loop}

// Without a GPU target nothing is chosen.
// NONE-NOT: tile.partition

// A fragment accessed at exactly the loop variables over its whole shape
// partitions the loop, even after a shared access and when the fragment
// is stored, not read.
// CHECK-LABEL: tile.func @identity
// CHECK: tile.parallel {{.*}} attributes {tile.loop_dims = array<i64: 0, 1>, tile.partition = "fragment"}
// CHECK: tile.load %{{.*}}[%{{.*}}, %{{.*}}] : !tile.buffer<[64, 32], f32, shared.dyn>
// CHECK-NEXT: tile.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {tile.partitions_loop} : !tile.buffer<[64, 32], f32, local.fragment>
tile.func @identity() {
  tile.kernel (%bx) grid [1] threads [128] {
    %S = tile.alloc : !tile.buffer<[64, 32], f32, shared.dyn>
    %acc = tile.alloc : !tile.buffer<[64, 32], f32, local.fragment>
    tile.parallel (%i, %j) in [64, 32] {
      %x = tile.load %S[%i, %j] : !tile.buffer<[64, 32], f32, shared.dyn>
      tile.store %x, %acc[%i, %j] : !tile.buffer<[64, 32], f32, local.fragment>
    }
  }
}

// -----

// The exact fragment wins over a permuted one accessed first.
// CHECK-LABEL: tile.func @prefer_exact
// CHECK: tile.parallel {{.*}} attributes {tile.loop_dims = array<i64: 0, 1>, tile.partition = "fragment"}
// CHECK: tile.load %{{.*}}[%{{.*}}, %{{.*}}] : !tile.buffer<[32, 64], f32, local.fragment>
// CHECK-NEXT: tile.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {tile.partitions_loop} : !tile.buffer<[64, 32], f32, local.fragment>
tile.func @prefer_exact() {
  tile.kernel (%bx) grid [1] threads [128] {
    %s = tile.alloc : !tile.buffer<[32, 64], f32, local.fragment>
    %t = tile.alloc : !tile.buffer<[64, 32], f32, local.fragment>
    tile.parallel (%i, %j) in [64, 32] {
      %x = tile.load %s[%j, %i] : !tile.buffer<[32, 64], f32, local.fragment>
      tile.store %x, %t[%i, %j] : !tile.buffer<[64, 32], f32, local.fragment>
    }
  }
}

// -----

// Only a permuted access: loop variable 0 runs along fragment dimension 1.
// CHECK-LABEL: tile.func @permuted
// CHECK: tile.parallel {{.*}} attributes {tile.loop_dims = array<i64: 1, 0>, tile.partition = "fragment"}
// CHECK: tile.load %{{.*}}[%{{.*}}, %{{.*}}] {tile.partitions_loop} : !tile.buffer<[32, 64], f32, local.fragment>
tile.func @permuted(%O: !tile.buffer<[64, 32], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %s = tile.alloc : !tile.buffer<[32, 64], f32, local.fragment>
    tile.parallel (%i, %j) in [64, 32] {
      %x = tile.load %s[%j, %i] : !tile.buffer<[32, 64], f32, local.fragment>
      tile.store %x, %O[%i, %j] : !tile.buffer<[64, 32], f32, global>
    }
  }
}

// -----

// A loop over a leading box of the fragment: the box is the loop's
// extents; a box beats a unit-dimension access found earlier.
// CHECK-LABEL: tile.func @box
// CHECK: tile.parallel {{.*}} attributes {tile.loop_box = array<i64: 64, 16>, tile.loop_dims = array<i64: 0, 1>, tile.partition = "fragment"}
// CHECK: tile.load %{{.*}}[%{{.*}}, %{{.*}}] : !tile.buffer<[64, 1], f32, local.fragment>
// CHECK-NEXT: tile.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {tile.partitions_loop} : !tile.buffer<[64, 32], f32, local.fragment>
tile.func @box() {
  tile.kernel (%bx) grid [1] threads [128] {
    %m = tile.alloc : !tile.buffer<[64, 1], f32, local.fragment>
    %acc = tile.alloc : !tile.buffer<[64, 32], f32, local.fragment>
    tile.parallel (%i, %j) in [64, 16] {
      %x = tile.load %m[%i, %j] : !tile.buffer<[64, 1], f32, local.fragment>
      tile.store %x, %acc[%i, %j] : !tile.buffer<[64, 32], f32, local.fragment>
    }
  }
}

// -----

// A unit dimension read at 0 between the loop variables (`m[i, 0]`).
// CHECK-LABEL: tile.func @unit_dim
// CHECK: tile.parallel {{.*}} attributes {tile.loop_dims = array<i64: 0>, tile.partition = "fragment"}
// CHECK: tile.load %{{.*}}[%{{.*}}, %{{.*}}] {tile.partitions_loop} : !tile.buffer<[64, 1], f32, local.fragment>
tile.func @unit_dim(%O: !tile.buffer<[64], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %c0 = arith.constant 0 : index
    %m = tile.alloc : !tile.buffer<[64, 1], f32, local.fragment>
    tile.parallel (%i) in [64] {
      %x = tile.load %m[%i, %c0] : !tile.buffer<[64, 1], f32, local.fragment>
      tile.store %x, %O[%i] : !tile.buffer<[64], f32, global>
    }
  }
}

// -----

// No fragment at the loop variables (a region of a fragment has no layout
// of its own; a row chosen by a constant is no loop variable): round-robin
// over the threads, 2048 iterations in 16 rounds of 128 threads. Run-time
// extents: a strided loop.
// CHECK-LABEL: tile.func @threads
// CHECK: tile.parallel {{.*}} attributes {tile.loop_regs = 16 : i64, tile.partition = "threads"}
// CHECK-NOT: tile.partitions_loop
// CHECK: tile.parallel {{.*}} attributes {tile.partition = "strided"}
// CHECK-NOT: tile.partitions_loop
tile.func @threads(%O: !tile.buffer<[64, 32], f32, global>, %n: index) {
  tile.kernel (%bx) grid [1] threads [128] {
    %c0 = arith.constant 0 : index
    %acc = tile.alloc : !tile.buffer<[128, 32], f32, local.fragment>
    %top = tile.region %acc[%c0, %c0] : !tile.buffer<[128, 32], f32, local.fragment> to !tile.buffer<[64, 32], f32, local.fragment>
    tile.parallel (%i, %j) in [64, 32] {
      %x = tile.load %top[%i, %j] : !tile.buffer<[64, 32], f32, local.fragment>
      %y = tile.load %acc[%c0, %j] : !tile.buffer<[128, 32], f32, local.fragment>
      %z = arith.addf %x, %y : f32
      tile.store %z, %O[%i, %j] : !tile.buffer<[64, 32], f32, global>
    }
    tile.parallel (%i) in [%n] {
      %x = tile.load %O[%i, %c0] : !tile.buffer<[64, 32], f32, global>
      tile.store %x, %O[%c0, %i] : !tile.buffer<[64, 32], f32, global>
    }
  }
}

// -----

// 100 iterations over 128 threads: one round, guarded; over the 64
// threads of the range `tx < 64`: two rounds, guarded; 128 iterations
// over the other 64 threads: two rounds, no guard.
// CHECK-LABEL: tile.func @padded
// CHECK: tile.parallel {{.*}} attributes {tile.loop_guard, tile.loop_regs = 1 : i64, tile.partition = "threads"}
// CHECK: tile.parallel {{.*}} attributes {tile.loop_guard, tile.loop_regs = 2 : i64, tile.partition = "threads"}
// CHECK: tile.parallel {{.*}} attributes {tile.loop_regs = 2 : i64, tile.partition = "threads"}
tile.func @padded(%O: !tile.buffer<[10, 10], f32, global>, %P: !tile.buffer<[2, 64], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %c64 = arith.constant 64 : index
    %cst = arith.constant 0.0 : f32
    %tx = tile.thread_binding 0
    tile.parallel (%i, %j) in [10, 10] {
      tile.store %cst, %O[%i, %j] : !tile.buffer<[10, 10], f32, global>
    }
    %lo = arith.cmpi ult, %tx, %c64 : index
    tile.if %lo {
      tile.parallel (%i, %j) in [10, 10] {
        tile.store %cst, %O[%i, %j] : !tile.buffer<[10, 10], f32, global>
      }
    } else {
      tile.parallel (%i, %j) in [2, 64] {
        tile.store %cst, %P[%i, %j] : !tile.buffer<[2, 64], f32, global>
      }
    }
  }
}

// -----

// A loop that stores into a T.alloc_local buffer (from global memory or
// from itself), or that touches only such buffers, runs whole in every
// thread (TileLang partitions neither); one that only reads a local buffer
// into global memory, or that stores into a T.alloc_var (local.var)
// buffer, is dealt out over the threads; one that touches a fragment
// follows it.
// CHECK-LABEL: tile.func @whole
// CHECK: tile.parallel {{.*}} attributes {tile.partition = "whole"}
// CHECK: tile.parallel {{.*}} attributes {tile.partition = "whole"}
// CHECK: tile.parallel {{.*}} attributes {tile.partition = "whole"}
// CHECK: tile.parallel {{.*}} attributes {tile.loop_guard, tile.loop_regs = 1 : i64, tile.partition = "threads"}
// CHECK: tile.parallel {{.*}} attributes {tile.loop_guard, tile.loop_regs = 1 : i64, tile.partition = "threads"}
// CHECK: tile.parallel {{.*}} attributes {tile.loop_dims = array<i64: 0>, tile.partition = "fragment"}
tile.func @whole(%X: !tile.buffer<[1024], f32, global>, %n: index) {
  tile.kernel (%bx) grid [1] threads [128] {
    %loc = tile.alloc : !tile.buffer<[8], f32, local>
    %c0 = arith.constant 0 : index
    %var = tile.alloc : !tile.buffer<[1], f32, local.var>
    %frag = tile.alloc : !tile.buffer<[8], f32, local.fragment>
    tile.parallel (%i) in [8] {
      %x = tile.load %X[%i] : !tile.buffer<[1024], f32, global>
      tile.store %x, %loc[%i] : !tile.buffer<[8], f32, local>
    }
    tile.parallel (%i) in [8] {
      %x = tile.load %loc[%i] : !tile.buffer<[8], f32, local>
      %y = arith.addf %x, %x : f32
      tile.store %y, %loc[%i] : !tile.buffer<[8], f32, local>
    }
    tile.parallel (%i) in [%n] {
      %x = tile.load %X[%i] : !tile.buffer<[1024], f32, global>
      tile.store %x, %loc[%i] : !tile.buffer<[8], f32, local>
    }
    tile.parallel (%i) in [8] {
      %x = tile.load %loc[%i] : !tile.buffer<[8], f32, local>
      tile.store %x, %X[%i] : !tile.buffer<[1024], f32, global>
    }
    tile.parallel (%i) in [8] {
      %x = tile.load %X[%i] : !tile.buffer<[1024], f32, global>
      tile.store %x, %var[%c0] : !tile.buffer<[1], f32, local.var>
    }
    tile.parallel (%i) in [8] {
      %x = tile.load %frag[%i] : !tile.buffer<[8], f32, local.fragment>
      tile.store %x, %loc[%i] : !tile.buffer<[8], f32, local>
    }
  }
}
