// RUN: tlc-opt --tile-split-masks=force=true %s | FileCheck %s
// RUN: tlc-opt --tile-split-masks %s | FileCheck %s --check-prefix=DEFAULT
// RUN: tlc-build --emit=cuda --target=cuda:sm_90a -Dbatch=1 -Dheads=1 -Dseq_len=512 -Ddim=128 -Dblock_M=128 -Dblock_N=128 -Dthreads=256 -Dnum_stages=2 --pass-config=tlc.split_masks=True %examples/flash_attention_causal.py | FileCheck %s --check-prefix=LOOP
// RUN: tlc-build --emit=cuda --target=cuda:sm_90a -Dbatch=1 -Dheads=1 -Dseq_len=512 -Ddim=128 -Dblock_M=128 -Dblock_N=128 -Dthreads=256 -Dnum_stages=2 --pass-config=tlc.split_masks=branch %examples/flash_attention_causal.py | FileCheck %s --check-prefix=BRANCH
// RUN: tlc-build --emit=cuda --target=cuda:sm_90a -Dbatch=1 -Dheads=1 -Dseq_len=512 -Ddim=64 -Dblock_M=128 -Dblock_N=128 -Dthreads=256 -Dnum_stages=2 %examples/flash_attention_causal.py | FileCheck %s --check-prefix=D64
// RUN: tlc-build --emit=cuda --target=cuda:sm_90a -Dbatch=1 -Dheads=1 -Dseq_len=512 -Ddim=64 -Dblock_M=128 -Dblock_N=128 -Dthreads=256 -Dnum_stages=2 --pass-config=tlc.split_masks=False %examples/flash_attention_causal.py | FileCheck %s --check-prefix=NOSPLIT
// RUN: tlc-build --emit=cuda --target=cuda:sm_90a -Dbatch=1 -Dheads=1 -Dseq_len=512 -Ddim=128 -Dblock_M=128 -Dblock_N=128 -Dthreads=256 -Dnum_stages=2 %examples/flash_attention_causal.py | FileCheck %s --check-prefix=D64
// RUN: tlc-build --emit=cuda --target=cuda:sm_90a -Dbatch=1 -Dheads=1 -Dseq_len=512 -Ddim=128 -Dblock_M=128 -Dblock_N=128 -Dthreads=256 -Dnum_stages=2 --pass-config=tlc.split_masks=False %examples/flash_attention_causal.py | FileCheck %s --check-prefix=NOSPLIT
// RUN: tlc-build --emit=cuda --target=cuda:sm_90a -Dbatch=1 -Dheads=1 -Dseq_len=512 -Ddim=64 -Dblock_M=128 -Dblock_N=128 -Dthreads=256 -Dnum_stages=2 %examples/flash_attention_fwd.py | FileCheck %s --check-prefix=NOSPLIT

// Causal attention on sm_90a (softmax overlap printer): the first
// iteration keeps the branch, its S gemm's first k step clears C where
// the guard holds; the steady state is split into the all-true iterations
// (a uniform break before anything is issued, no mask, scale-d = 0) and
// the masked rest, which continues at the same k.
// LOOP:      const bool [[G0:t_[0-9]+]] = (
// LOOP:      if (!([[G0]])) {
// LOOP:      wgmmaM64N128K16F32F16<0, 0>(&acc_s[0], {{.*}}, ([[G0]] ? 0 : 1));
// LOOP:      for (; [[K:k_[0-9]+]] < [[N:t_[0-9]+]]; ++[[K]]) {
// LOOP:        const bool [[G1:t_[0-9]+]] = (
// LOOP:        if (!([[G1]])) break;  // not all true from here on: the masked loop
// LOOP-NEXT:   // all true here: the next gemm's scale-d = 0 clears C
// LOOP-NOT:    T.Parallel
// LOOP:        wgmmaM64N128K16F32F16<0, 0>(&acc_s[0], {{.*}}, 0);
// LOOP:        wgmmaWait<1>();
// LOOP:      for (; [[K]] < [[N]]; ++[[K]]) {
// LOOP:        const bool [[G2:t_[0-9]+]] = (
// LOOP:        if (!([[G2]])) {
// LOOP:        wgmmaM64N128K16F32F16<0, 0>(&acc_s[0], {{.*}}, ([[G2]] ? 0 : 1));
// By default (no tlc.split_masks) the loop is split for causal attention
// at head dimension 64 and 128 (the causal mask initialises the
// accumulator of a wgmma gemm whose reduction is at most 128; D64 measured
// faster on an H200 and an H100, D128 is perf37's default); not for the
// non-causal program, and not with tlc.split_masks=False.
// D64:      if (!([[G:t_[0-9]+]])) break;  // not all true from here on: the masked loop
// D64:      wgmmaM64N128K16F32F16<0, 0>(&acc_s[0], {{.*}}, 0);
// NOSPLIT-NOT: all true
// BRANCH-NOT: break;
// BRANCH:     for (int [[K:k_[0-9]+]] = 0 + 1;
// BRANCH:       if (!([[G:t_[0-9]+]])) {
// BRANCH:       wgmmaM64N128K16F32F16<0, 0>(&acc_s[0], {{.*}}, ([[G]] ? 0 : 1));

// Attention's causal mask: row bx * 64 + i against column k * 32 + j is
// true everywhere when the block's first row is at least the key block's
// last column (bx * 64 >= k * 32 + 31): then the fragment is filled with
// the true value and the loop runs only in the else branch. The wgmma
// gemm that accumulates into it next clears it through its scale-d
// instead (the printers drop the fill), and the loop printers may split
// the loop at the branch (tile.split_mask_loop).
// CHECK-LABEL: tile.func @causal
// CHECK:      tile.pipelined
// CHECK:        %[[ROW:.*]] = arith.muli %bx, %c64
// CHECK:        %[[COL:.*]] = arith.muli %k, %c32
// CHECK:        %[[LAST:.*]] = arith.addi %[[COL]], %c31
// CHECK:        %[[ALL:.*]] = arith.cmpi sge, %[[ROW]], %[[LAST]] : index
// CHECK:        tile.if %[[ALL]] {
// CHECK-NEXT:     tile.fill %[[S:.*]], %cst : !tile.buffer<[64, 32], f32, local.fragment>
// CHECK-NEXT:   } else {
// CHECK-NEXT:     tile.parallel (%i, %j) in [64, 32] {
// CHECK:            arith.select
// CHECK:          }
// CHECK-NEXT:   } {tile.split_mask, tile.split_mask_loop, tile.split_mask_scale_d}
// CHECK-NEXT:   tile.gemm {{.*}} {tile.instr = "wgmma", tile.scale_d_mask, transpose_b}
// Without the pass config or the option only the defaults split: this
// causal mask before a wgmma gemm with a reduction of 32 (at most 64).
// DEFAULT-LABEL: tile.func @causal
// DEFAULT:      tile.if
// DEFAULT:      } {tile.split_mask, tile.split_mask_loop, tile.split_mask_scale_d}
// DEFAULT-NEXT: tile.gemm {{.*}} {tile.instr = "wgmma", tile.scale_d_mask, transpose_b}
tile.func @causal(%A: !tile.buffer<[256, 32], f16, global>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  tile.kernel (%bx) grid [4] threads [128] {
    %Q = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %K = tile.alloc : !tile.buffer<[32, 32], f16, shared.dyn>
    %S = tile.alloc : !tile.buffer<[64, 32], f32, local.fragment>
    tile.pipelined %k = %c0 to %c4 stages 2 {
      tile.parallel (%i, %j) in [64, 32] {
        %c64 = arith.constant 64 : index
        %row0 = arith.muli %bx, %c64 : index
        %row = arith.addi %row0, %i : index
        %c32 = arith.constant 32 : index
        %col0 = arith.muli %k, %c32 : index
        %col = arith.addi %col0, %j : index
        %in = arith.cmpi sge, %row, %col : index
        %inf = arith.constant 0x7F800000 : f32
        %ninf = arith.negf %inf : f32
        %zero = arith.constant 0.000000e+00 : f32
        %v = arith.select %in, %zero, %ninf : f32
        tile.store %v, %S[%i, %j] : !tile.buffer<[64, 32], f32, local.fragment>
      }
      tile.gemm %Q, %K, %S {tile.instr = "wgmma", transpose_b} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[32, 32], f16, shared.dyn>, !tile.buffer<[64, 32], f32, local.fragment>
    }
  }
}

// By default the causal mask before a reduction of 128 splits; not the
// causal mask before a reduction of 256, nor a mask of one axis (the
// sequence end) before a reduction of 32. With the option all split.
// DEFAULT-LABEL: tile.func @causal_d128
// DEFAULT:       tile.if
// DEFAULT:       } {tile.split_mask, tile.split_mask_loop, tile.split_mask_scale_d}
// DEFAULT-LABEL: tile.func @causal_d256
// DEFAULT-NOT:   tile.if
// DEFAULT-LABEL: tile.func @sequence_end_gemm
// DEFAULT-NOT:   tile.if
// DEFAULT-LABEL: tile.func @sequence_end
// CHECK-LABEL: tile.func @causal_d128
// CHECK:         tile.if
// CHECK-LABEL: tile.func @causal_d256
// CHECK:         tile.if
// CHECK-LABEL: tile.func @sequence_end_gemm
// CHECK:         tile.if
tile.func @causal_d128(%A: !tile.buffer<[256, 128], f16, global>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  tile.kernel (%bx) grid [4] threads [128] {
    %Q = tile.alloc : !tile.buffer<[64, 128], f16, shared.dyn>
    %K = tile.alloc : !tile.buffer<[32, 128], f16, shared.dyn>
    %S = tile.alloc : !tile.buffer<[64, 32], f32, local.fragment>
    tile.pipelined %k = %c0 to %c4 stages 2 {
      tile.parallel (%i, %j) in [64, 32] {
        %c64 = arith.constant 64 : index
        %row0 = arith.muli %bx, %c64 : index
        %row = arith.addi %row0, %i : index
        %c32 = arith.constant 32 : index
        %col0 = arith.muli %k, %c32 : index
        %col = arith.addi %col0, %j : index
        %in = arith.cmpi sge, %row, %col : index
        %zero = arith.constant 0.000000e+00 : f32
        %ninf = arith.constant 0xFF800000 : f32
        %v = arith.select %in, %zero, %ninf : f32
        tile.store %v, %S[%i, %j] : !tile.buffer<[64, 32], f32, local.fragment>
      }
      tile.gemm %Q, %K, %S {tile.instr = "wgmma", transpose_b} : !tile.buffer<[64, 128], f16, shared.dyn>, !tile.buffer<[32, 128], f16, shared.dyn>, !tile.buffer<[64, 32], f32, local.fragment>
    }
  }
}
tile.func @causal_d256(%A: !tile.buffer<[256, 256], f16, global>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  tile.kernel (%bx) grid [4] threads [128] {
    %Q = tile.alloc : !tile.buffer<[64, 256], f16, shared.dyn>
    %K = tile.alloc : !tile.buffer<[32, 256], f16, shared.dyn>
    %S = tile.alloc : !tile.buffer<[64, 32], f32, local.fragment>
    tile.pipelined %k = %c0 to %c4 stages 2 {
      tile.parallel (%i, %j) in [64, 32] {
        %c64 = arith.constant 64 : index
        %row0 = arith.muli %bx, %c64 : index
        %row = arith.addi %row0, %i : index
        %c32 = arith.constant 32 : index
        %col0 = arith.muli %k, %c32 : index
        %col = arith.addi %col0, %j : index
        %in = arith.cmpi sge, %row, %col : index
        %zero = arith.constant 0.000000e+00 : f32
        %ninf = arith.constant 0xFF800000 : f32
        %v = arith.select %in, %zero, %ninf : f32
        tile.store %v, %S[%i, %j] : !tile.buffer<[64, 32], f32, local.fragment>
      }
      tile.gemm %Q, %K, %S {tile.instr = "wgmma", transpose_b} : !tile.buffer<[64, 256], f16, shared.dyn>, !tile.buffer<[32, 256], f16, shared.dyn>, !tile.buffer<[64, 32], f32, local.fragment>
    }
  }
}
tile.func @sequence_end_gemm(%n: index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  tile.kernel (%bx) grid [4] threads [128] {
    %Q = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %K = tile.alloc : !tile.buffer<[32, 32], f16, shared.dyn>
    %S = tile.alloc : !tile.buffer<[64, 32], f32, local.fragment>
    tile.pipelined %k = %c0 to %c4 stages 2 {
      tile.parallel (%i, %j) in [64, 32] {
        %c32 = arith.constant 32 : index
        %col0 = arith.muli %k, %c32 : index
        %col = arith.addi %col0, %j : index
        %in = arith.cmpi slt, %col, %n : index
        %zero = arith.constant 0.000000e+00 : f32
        %ninf = arith.constant 0xFF800000 : f32
        %v = arith.select %in, %zero, %ninf : f32
        tile.store %v, %S[%i, %j] : !tile.buffer<[64, 32], f32, local.fragment>
      }
      tile.gemm %Q, %K, %S {tile.instr = "wgmma", transpose_b} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[32, 32], f16, shared.dyn>, !tile.buffer<[64, 32], f32, local.fragment>
    }
  }
}

// The end of the sequence (k * 32 + j < n, n a run-time value) and a
// second bound joined by `and`: both must hold at the greatest column
// (k * 32 + 31); `slt` compares the left side's greatest value with the
// right side's least.
// CHECK-LABEL: tile.func @sequence_end
// CHECK:        %[[C:.*]] = arith.muli %k, %c32
// CHECK:        %[[LAST:.*]] = arith.addi %[[C]], %c31
// CHECK:        %[[IN:.*]] = arith.cmpi slt, %[[LAST]], %arg0 : index
// CHECK:        %[[LAST2:.*]] = arith.addi %[[C]], %c31
// CHECK:        %[[IN2:.*]] = arith.cmpi sle, %[[LAST2]], %c200 : index
// CHECK:        %[[ALL:.*]] = arith.andi %[[IN]], %[[IN2]] : i1
// CHECK:        tile.if %[[ALL]] {
// CHECK-NEXT:     tile.fill
tile.func @sequence_end(%n: index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  tile.kernel (%bx) grid [4] threads [128] {
    %S = tile.alloc : !tile.buffer<[64, 32], f32, local.fragment>
    tile.pipelined %k = %c0 to %c4 stages 2 {
      tile.parallel (%i, %j) in [64, 32] {
        %c32 = arith.constant 32 : index
        %c200 = arith.constant 200 : index
        %col0 = arith.muli %k, %c32 : index
        %col = arith.addi %col0, %j : index
        %in = arith.cmpi slt, %col, %n : index
        %in2 = arith.cmpi sle, %col, %c200 : index
        %both = arith.andi %in, %in2 : i1
        %zero = arith.constant 0.000000e+00 : f32
        %ninf = arith.constant 0xFF800000 : f32
        %v = arith.select %both, %zero, %ninf : f32
        tile.store %v, %S[%i, %j] : !tile.buffer<[64, 32], f32, local.fragment>
      }
    }
  }
}

// Left alone: a mask through `%` (no bounds), one whose true value
// varies over the loop, one that reads memory, one that stores at other
// indices than the loop's, and a mask outside a pipelined loop. Nothing
// built for the failed attempts stays behind.
// CHECK-LABEL: tile.func @left_alone
// CHECK-NOT:  tile.if
// CHECK:      tile.pipelined
// CHECK-NOT:  tile.if
// CHECK:      tile.parallel
// CHECK-NOT:  tile.if
// CHECK-LABEL: tile.func @next
tile.func @left_alone(%G: !tile.buffer<[64], f32, global>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  tile.kernel (%bx) grid [4] threads [128] {
    %S = tile.alloc : !tile.buffer<[64, 32], f32, local.fragment>
    %T = tile.alloc : !tile.buffer<[32, 32], f32, local.fragment>
    tile.parallel (%i, %j) in [64, 32] {
      %in = arith.cmpi sge, %i, %j : index
      %zero = arith.constant 0.000000e+00 : f32
      %one = arith.constant 1.000000e+00 : f32
      %v = arith.select %in, %zero, %one : f32
      tile.store %v, %S[%i, %j] : !tile.buffer<[64, 32], f32, local.fragment>
    }
    tile.pipelined %k = %c0 to %c4 stages 2 {
      tile.parallel (%i, %j) in [64, 32] {
        %c8 = arith.constant 8 : index
        %r = arith.remsi %j, %c8 : index
        %in = arith.cmpi sge, %k, %r : index
        %zero = arith.constant 0.000000e+00 : f32
        %one = arith.constant 1.000000e+00 : f32
        %v = arith.select %in, %zero, %one : f32
        tile.store %v, %S[%i, %j] : !tile.buffer<[64, 32], f32, local.fragment>
      }
      tile.parallel (%i, %j) in [64, 32] {
        %in = arith.cmpi sge, %k, %c0 : index
        %x = arith.index_cast %j : index to i32
        %f = arith.sitofp %x : i32 to f32
        %one = arith.constant 1.000000e+00 : f32
        %v = arith.select %in, %f, %one : f32
        tile.store %v, %S[%i, %j] : !tile.buffer<[64, 32], f32, local.fragment>
      }
      tile.parallel (%i, %j) in [64, 32] {
        %in = arith.cmpi sge, %k, %j : index
        %g = tile.load %G[%i] : !tile.buffer<[64], f32, global>
        %zero = arith.constant 0.000000e+00 : f32
        %v = arith.select %in, %zero, %g : f32
        tile.store %v, %S[%i, %j] : !tile.buffer<[64, 32], f32, local.fragment>
      }
      tile.parallel (%i, %j) in [32, 32] {
        %in = arith.cmpi sge, %k, %j : index
        %zero = arith.constant 0.000000e+00 : f32
        %one = arith.constant 1.000000e+00 : f32
        %v = arith.select %in, %zero, %one : f32
        tile.store %v, %T[%j, %i] : !tile.buffer<[32, 32], f32, local.fragment>
      }
    }
  }
}
tile.func @next() {
  tile.kernel (%bx) grid [1] threads [32] {
  }
}
