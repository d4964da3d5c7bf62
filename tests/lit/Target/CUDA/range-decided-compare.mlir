// RUN: tlc-translate --tile-to-cuda %s | FileCheck %s

// Each predicate, decided by the value ranges of its operands or not: i in
// [0, 31], j in [0, 127], bx in [0, 3]. A decided compare emits no code and
// its select takes the chosen operand; an undecided one stays a compare.

// CHECK-LABEL: void __launch_bounds__(128) compares_kernel(
// CHECK: // T.Parallel
// i < 32, j <= 127, i + 32 > j - 200, bx != 4, i == 40 (false), j u>= 0,
// then i < 16 (undecided), j == 5 (undecided).
// CHECK-NOT: const bool
// CHECK: const float [[X1:t[_0-9]*]] = (x + 1.0f);
// CHECK-NEXT: const float [[S1:t_[0-9]+]] = [[X1]];
// CHECK-NEXT: const float [[X2:t_[0-9]+]] = (x + 2.0f);
// CHECK-NEXT: const float {{t_[0-9]+}} = [[X2]];
// CHECK-NOT: const
// CHECK: const float [[X3:t_[0-9]+]] = (x + 3.0f);
// CHECK-NEXT: const float {{t_[0-9]+}} = [[X3]];
// CHECK-NEXT: const float [[X4:t_[0-9]+]] = (x + 4.0f);
// CHECK-NEXT: const float {{t_[0-9]+}} = [[X4]];
// i == 40 is false: the select takes x, and x + 5, unused now, is pruned
// with the operands of the decided compares (i + 32, j - 200).
// CHECK-NEXT: const float {{t_[0-9]+}} = x;
// CHECK-NEXT: const float [[X6:t_[0-9]+]] = (x + 6.0f);
// CHECK-NEXT: const float {{t_[0-9]+}} = [[X6]];
// CHECK-NEXT: const bool [[G:t_[0-9]+]] = (i0 < 16);
// CHECK-NEXT: const float {{t_[0-9]+}} = ([[G]] ? x : 0.0f);
// CHECK-NEXT: const bool [[H:t_[0-9]+]] = (i1 == 5);
// CHECK-NEXT: const float {{t_[0-9]+}} = ([[H]] ? x : 0.0f);
tile.func @compares(%A: !tile.buffer<[128, 128], f32, global> loc("A")) {
  tile.kernel (%bx) grid [4] threads [128] {
    %F = tile.alloc : !tile.buffer<[32, 128], f32, local.fragment> loc("F"("g.py":5:9))
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c40 = arith.constant 40 : index
    %c127 = arith.constant 127 : index
    %c200 = arith.constant 200 : index
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %three = arith.constant 3.0 : f32
    %four = arith.constant 4.0 : f32
    %five = arith.constant 5.0 : f32
    %six = arith.constant 6.0 : f32
    tile.parallel (%i, %j) in [32, 128] {
      %x = tile.load %F[%i, %j] : !tile.buffer<[32, 128], f32, local.fragment>
      %p1 = arith.cmpi slt, %i, %c32 : index
      %x1 = arith.addf %x, %one : f32
      %s1 = arith.select %p1, %x1, %zero : f32
      %p2 = arith.cmpi sle, %j, %c127 : index
      %x2 = arith.addf %x, %two : f32
      %s2 = arith.select %p2, %x2, %zero : f32
      %i32 = arith.addi %i, %c32 : index
      %j200 = arith.subi %j, %c200 : index
      %p3 = arith.cmpi sgt, %i32, %j200 : index
      %x3 = arith.addf %x, %three : f32
      %s3 = arith.select %p3, %x3, %zero : f32
      %p4 = arith.cmpi ne, %bx, %c4 : index
      %x4 = arith.addf %x, %four : f32
      %s4 = arith.select %p4, %x4, %zero : f32
      %p5 = arith.cmpi eq, %i, %c40 : index
      %x5 = arith.addf %x, %five : f32
      %s5 = arith.select %p5, %x5, %x : f32
      %p6 = arith.cmpi uge, %j, %c0 : index
      %x6 = arith.addf %x, %six : f32
      %s6 = arith.select %p6, %x6, %zero : f32
      %p7 = arith.cmpi slt, %i, %c16 : index
      %s7 = arith.select %p7, %x, %zero : f32
      %p8 = arith.cmpi eq, %j, %c5 : index
      %s8 = arith.select %p8, %x, %zero : f32
      %a1 = arith.addf %s1, %s2 : f32
      %a2 = arith.addf %a1, %s3 : f32
      %a3 = arith.addf %a2, %s4 : f32
      %a4 = arith.addf %a3, %s5 : f32
      %a5 = arith.addf %a4, %s6 : f32
      %a6 = arith.addf %a5, %s7 : f32
      %a7 = arith.addf %a6, %s8 : f32
      tile.store %a7, %F[%i, %j] : !tile.buffer<[32, 128], f32, local.fragment>
    } loc("g.py":7:9)
    %At = tile.region %A[%c0, %c0] : !tile.buffer<[128, 128], f32, global> to !tile.buffer<[32, 128], f32, global>
    tile.copy %F to %At : !tile.buffer<[32, 128], f32, local.fragment> to !tile.buffer<[32, 128], f32, global> loc("g.py":9:9)
  } loc("g.py":3:5)
}
