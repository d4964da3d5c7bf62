// RUN: tlc-translate --tile-to-cpp %s | FileCheck %s

// Loops, conditions, variables, atomics, barriers, pipelining, printing and
// assertions. The element atomic adds outside a T.Parallel are statements
// of every thread, so the block's threads run one by one.

// CHECK-LABEL: extern "C" int tlc_control(
// CHECK: tlc::cpu::launch(st, args->numWorkers, 4, 1, 1, [&](int64_t bx, int64_t /*by*/, int64_t /*bz*/) {
// CHECK:   tlc::cpu::Local<int32_t, 2> v_mem({threads, 1});
// CHECK:   std::fill(v_mem.data.begin(), v_mem.data.end(), 0);
// CHECK:   for (int64_t tlc_t = 0; tlc_t < threads; ++tlc_t) {
// CHECK:     for (int64_t i = 0; i < 4; i += 1) {
// CHECK:       const int32_t [[K:.*]] = tlc::cpu::loadChecked(st, {{.*}}, tlc::cpu::lane(v_all, tlc_t), {0});
// CHECK:       const int32_t [[K1:.*]] = ([[K]] + 1);
// CHECK:       tlc::cpu::storeChecked(st, {{.*}}, tlc::cpu::lane(v_all, tlc_t), {0}, [[K1]]);
// CHECK:   // T.Pipelined: a plain loop on the CPU
// CHECK:   for (int64_t k = 0; k < 4; k += 1) {
// CHECK:     // T.sync_threads(): every thread has finished the phase before it
// CHECK:   for (int64_t tlc_t = 0; tlc_t < threads; ++tlc_t) {
// CHECK:   if ([[C:v_[0-9]+]]) {
// CHECK:     tlc::cpu::atomicAddGuarded(P, {bx}, tlc::cpu::cast<float>(1.0f));
// CHECK:   } else {
// CHECK:     const float prev = tlc::cpu::cast<float>(tlc::cpu::atomicAddGuarded(P, {bx}, tlc::cpu::cast<float>(1.0f)));
// CHECK:   }
// CHECK:   while (true) {
// CHECK:     if (!{{.*}})
// CHECK:       break;
// CHECK:   }
// CHECK:   // T.atomic_add of a tile
// CHECK:       tlc::cpu::atomicAddGuarded({{.*}}, {0, [[I:.*]]}, tlc::cpu::cast<float>(tlc::cpu::loadChecked(st, {{.*}}, frag, {[[I]]})));
// CHECK:   std::printf("acc:");
// CHECK:   if (![[C]]) {
// CHECK:     st.fail("{{.*}}control.mlir:{{[0-9]+}}:{{[0-9]+}}", "device assertion failed: out of range");
// CHECK:     return;
// CHECK:   }
// CHECK: });
// CHECK: if (st.hasFailed())
// CHECK:   return 1;
tile.func @control(%O: !tile.buffer<[N, 64], f32, global> loc("O"),
                   %P: !tile.buffer<[N], f32, global> loc("P"))
    symbols(N: dynamic) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %f1 = arith.constant 1.0 : f32
  tile.kernel (%bx) grid [4] threads [256] {
    %v = tile.alloc init(%z : i32) : !tile.buffer<[1], i32, local.var> loc("v")
    tile.for %i = %c0 to %c4 step %c1 {
      %k = tile.load %v[] : !tile.buffer<[1], i32, local.var>
      %k1 = arith.addi %k, %one : i32
      tile.store %k1, %v[] : !tile.buffer<[1], i32, local.var>
    }
    tile.pipelined %k = %c0 to %c4 stages 2 {
      tile.sync_threads
    }
    %cond = arith.cmpi slt, %bx, %c4 : index
    tile.if %cond {
      tile.atomic_add %P[%bx], %f1 : !tile.buffer<[N], f32, global>, f32
    } else {
      %old = tile.atomic_add %P[%bx], %f1 : !tile.buffer<[N], f32, global>, f32 -> f32
    }
    tile.while {
      %k = tile.load %v[] : !tile.buffer<[1], i32, local.var>
      %c = arith.cmpi slt, %k, %one : i32
      tile.condition %c
    } do {
      %k = tile.load %v[] : !tile.buffer<[1], i32, local.var>
      %k1 = arith.addi %k, %one : i32
      tile.store %k1, %v[] : !tile.buffer<[1], i32, local.var>
    }
    %row = tile.region %O[%bx, 0] : !tile.buffer<[N, 64], f32, global> to !tile.buffer<[1, 64], f32, global>
    %frag = tile.alloc : !tile.buffer<[64], f32, local.fragment> loc("frag")
    tile.atomic_add %row, %frag : !tile.buffer<[1, 64], f32, global>, !tile.buffer<[64], f32, local.fragment>
    tile.print "acc" %frag : !tile.buffer<[64], f32, local.fragment>
    tile.device_assert %cond, "out of range"
  }
}
