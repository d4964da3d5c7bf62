// RUN: tlc-opt --tile-check-shared-bounds --verify-diagnostics --split-input-file %s

// A parallel loop over 64 columns of 32-column shared tiles, read and
// written; the note shows the allocation.
tile.func @parallel_past_extent(%X: !tile.buffer<[64, 32], f16, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    // expected-note@+1 {{is allocated here with shape [64, 32]}}
    %s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    // expected-note@+1 {{is allocated here with shape [64, 32]}}
    %t = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    tile.parallel (%i, %j) in [64, 64] {
      // expected-error@+1 {{read outside the shared buffer: the index of dimension 1 takes the values 0 to 63 here, but the dimension has 32 elements}}
      %v = tile.load %s[%i, %j] : !tile.buffer<[64, 32], f16, shared.dyn>
      // expected-error@+1 {{write outside the shared buffer: the index of dimension 1 takes the values 0 to 63 here}}
      tile.store %v, %t[%i, %j] : !tile.buffer<[64, 32], f16, shared.dyn>
    }
  }
}

// -----

// A serial loop with a step: i - 1 reaches -1 at i = 0 (only the lower end
// is out), and (i * 3) // 2 stays inside for i in {0, 4, 8}.
tile.func @serial_shifted(%X: !tile.buffer<[16], f32, global>) {
  tile.kernel (%bx) grid [1] threads [32] {
    // expected-note@+1 {{allocated here}}
    %s = tile.alloc : !tile.buffer<[16], f32, shared.dyn>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c9 = arith.constant 9 : index
    tile.for %i = %c0 to %c9 step %c4 {
      %m = arith.subi %i, %c1 : index
      // expected-error@+1 {{takes the values -1 to 7 here, but the dimension has 16 elements}}
      %v = tile.load %s[%m] : !tile.buffer<[16], f32, shared.dyn>
      %t = arith.muli %i, %c3 : index
      %h = arith.floordivsi %t, %c2 : index
      tile.store %v, %s[%h] : !tile.buffer<[16], f32, shared.dyn>
    }
  }
}

// -----

// Block and thread indices vary too: bx * 32 + tx over a 2-block grid
// reaches 63 in a 48-element buffer.
tile.func @block_and_thread(%X: !tile.buffer<[48], f32, global>) {
  tile.kernel (%bx) grid [2] threads [32] {
    // expected-note@+1 {{allocated here}}
    %s = tile.alloc : !tile.buffer<[48], f32, shared.dyn>
    %tx = tile.thread_binding 0
    %c32 = arith.constant 32 : index
    %b = arith.muli %bx, %c32 : index
    %k = arith.addi %b, %tx : index
    %cst = arith.constant 0.0 : f32
    // expected-error@+1 {{takes the values 0 to 63 here, but the dimension has 48 elements}}
    tile.store %cst, %s[%k] : !tile.buffer<[48], f32, shared.dyn>
  }
}

// -----

// Nothing is reported where a run may not execute the access or the
// index stays inside: under tile.if, behind a select, in a loop of unknown
// or zero trips, through a view, for an index read from memory, for global
// memory, and where the interval is loose but every value is inside
// ((i + j) - j is i).
tile.func @not_reported(%X: !tile.buffer<[64], f32, global>, %n: index) {
  tile.kernel (%bx) grid [1] threads [64] {
    %s = tile.alloc : !tile.buffer<[32], f32, shared.dyn>
    %idx = tile.alloc : !tile.buffer<[4], index, shared.dyn>
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %cst = arith.constant 0.0 : f32
    tile.parallel (%i, %j) in [64, 8] {
      %lt = arith.cmpi slt, %i, %c32 : index
      tile.if %lt {
        tile.store %cst, %s[%i] : !tile.buffer<[32], f32, shared.dyn>
      }
      %v = tile.load %s[%i] : !tile.buffer<[32], f32, shared.dyn>
      %w = arith.select %lt, %v, %cst : f32
      tile.store %w, %X[%i] : !tile.buffer<[64], f32, global>
      %g = tile.load %X[%i] : !tile.buffer<[64], f32, global>
      %a = arith.addi %i, %j : index
      %k = arith.subi %a, %j : index
      %c31 = arith.constant 31 : index
      %q = arith.minsi %k, %c31 : index
      tile.store %g, %s[%q] : !tile.buffer<[32], f32, shared.dyn>
    }
    tile.for %i = %c0 to %n step %c32 {
      tile.store %cst, %s[%c32] : !tile.buffer<[32], f32, shared.dyn>
    }
    tile.for %i = %c32 to %c0 step %c32 {
      tile.store %cst, %s[%i] : !tile.buffer<[32], f32, shared.dyn>
    }
    %r = tile.load %idx[%c0] : !tile.buffer<[4], index, shared.dyn>
    tile.store %cst, %s[%r] : !tile.buffer<[32], f32, shared.dyn>
    %half = tile.region %s[0] : !tile.buffer<[32], f32, shared.dyn> to !tile.buffer<[16], f32, shared.dyn>
    tile.parallel (%i) in [32] {
      tile.store %cst, %half[%i] : !tile.buffer<[16], f32, shared.dyn>
    }
  }
}

// -----

// Regions (the operands of tile ops, which access every element): one
// past the end at a constant start, one whose start slides with a serial
// loop past the last 16 elements, one at a negative start; a region
// inside its buffer at every start and regions of a global buffer
// (guarded) are not reported.
tile.func @regions(%G: !tile.buffer<[64], f32, global>) {
  tile.kernel (%bx) grid [1] threads [32] {
    // expected-note@+1 {{is allocated here with shape [32]}}
    %s = tile.alloc : !tile.buffer<[32], f32, shared.dyn>
    %g33 = tile.region %G[8] : !tile.buffer<[64], f32, global> to !tile.buffer<[33], f32, global>
    // expected-error@+1 {{region outside the shared buffer: in dimension 0 it starts at index 0 and spans 33 elements, but the dimension has 32 elements}}
    %r0 = tile.region %s[0] : !tile.buffer<[32], f32, shared.dyn> to !tile.buffer<[33], f32, shared.dyn>
    tile.copy %g33 to %r0 : !tile.buffer<[33], f32, global> to !tile.buffer<[33], f32, shared.dyn>
    %g16 = tile.region %G[60] : !tile.buffer<[64], f32, global> to !tile.buffer<[16], f32, global>
    %c16 = arith.constant 16 : index
    %cm1 = arith.constant -1 : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    tile.for %k = %c0 to %c3 step %c1 {
      %o = arith.muli %k, %c16 : index
      // expected-error@+1 {{in dimension 0 its start takes the values 0 to 32 here and spans 16 elements, but the dimension has 32 elements}}
      %r1 = tile.region %s[%o] : !tile.buffer<[32], f32, shared.dyn> to !tile.buffer<[16], f32, shared.dyn>
      tile.copy %g16 to %r1 : !tile.buffer<[16], f32, global> to !tile.buffer<[16], f32, shared.dyn>
    }
    tile.for %k = %c0 to %c2 step %c1 {
      %o = arith.muli %k, %c16 : index
      %r2 = tile.region %s[%o] : !tile.buffer<[32], f32, shared.dyn> to !tile.buffer<[16], f32, shared.dyn>
      tile.copy %r2 to %g16 : !tile.buffer<[16], f32, shared.dyn> to !tile.buffer<[16], f32, global>
    }
    %g4 = tile.region %G[62] : !tile.buffer<[64], f32, global> to !tile.buffer<[4], f32, global>
    // expected-error@+1 {{it starts at index -1 and spans 4 elements}}
    %r3 = tile.region %s[%cm1] : !tile.buffer<[32], f32, shared.dyn> to !tile.buffer<[4], f32, shared.dyn>
    tile.copy %r3 to %g4 : !tile.buffer<[4], f32, shared.dyn> to !tile.buffer<[4], f32, global>
  }
}

// -----

// Fragments and thread-local arrays are indexed unchecked too: a 32-element
// fragment under a 128-wide parallel loop, an 8-element local array written
// at k + 1; a global buffer is not this pass's business.
tile.func @registers(%X: !tile.buffer<[16], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    // expected-note@+1 {{the buffer is allocated here with shape [32]}}
    %f = tile.alloc : !tile.buffer<[32], f32, local.fragment>
    // expected-note@+1 {{allocated here with shape [8]}}
    %l = tile.alloc : !tile.buffer<[8], f32, local>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    tile.parallel (%i) in [128] {
      // expected-error@+1 {{read outside the buffer: the index of dimension 0 takes the values 0 to 127 here, but the dimension has 32 elements (TileLang does not check this either: the access reads or writes registers or local memory of something else)}}
      %v = tile.load %f[%i] : !tile.buffer<[32], f32, local.fragment>
      tile.store %v, %X[%i] : !tile.buffer<[16], f32, global>
    }
    tile.for %k = %c0 to %c8 step %c1 {
      %k1 = arith.addi %k, %c1 : index
      %z = arith.constant 0.0 : f32
      // expected-error@+1 {{write outside the buffer: the index of dimension 0 takes the values 1 to 8 here}}
      tile.store %z, %l[%k1] : !tile.buffer<[8], f32, local>
    }
  }
}
