// RUN: tlc-translate --tile-to-cpp %s | FileCheck %s

// T.copy between scopes: global accesses are guarded (zero-filled reads,
// dropped writes), on-chip ones checked; converting copies round through
// tlc::cpu::cast; unit dimensions are dropped when pairing elements. Each
// copy runs unchecked when both views hold every index it visits.

// CHECK-LABEL: extern "C" int tlc_copies(const tlc_cpu_args *args)
// CHECK: const int64_t M = args->symbols[0];
// CHECK: const tlc::cpu::View<tlc::cpu::f16, 2> A = tlc::cpu::denseView<tlc::cpu::f16, 2>(static_cast<tlc::cpu::f16 *>(args->params[0]), {M, 64});
// CHECK: const int64_t [[G:.*]] = tlc::cpu::ceilDiv<int64_t>(M, 32);
// CHECK: tlc::cpu::launch(st, args->numWorkers, [[G]], 1, 1, [&](int64_t bx, int64_t /*by*/, int64_t /*bz*/) {
// CHECK:   tlc::cpu::Local<tlc::cpu::f16, 2> A_s_mem({32, 64});
// CHECK:   const tlc::cpu::View<tlc::cpu::f16, 2> A_s = A_s_mem.view;
// CHECK:   tlc::cpu::Local<float, 2> acc_mem({32, 64});
// CHECK:   const tlc::cpu::View<tlc::cpu::f16, 2> [[R:.*]] = tlc::cpu::region(A, {[[Y:.*]], 0}, {32, 64});
// CHECK:   // T.copy global [32, 64] -> shared.dyn [32, 64] (global accesses guarded)  (copy.mlir:
// The fast path: both views hold the whole box, so no access is checked.
// CHECK:   if (tlc::cpu::covers([[R]], {int64_t(32), int64_t(64)}) && tlc::cpu::covers(A_s, {int64_t(32), int64_t(64)})) {
// Its innermost dimension is one tlc::cpu::copyRow per row.
// CHECK:     for (int64_t [[I:.*]] = 0; [[I]] < 32; ++[[I]]) {
// CHECK-NEXT:  tlc::cpu::copyRow(&A_s.at({[[I]], 0}), A_s.stride[1], &[[R]].at({[[I]], 0}), [[R]].stride[1], int64_t(64));
// CHECK:   } else {
// CHECK:     for (int64_t [[I2:.*]] = 0; [[I2]] < 32; ++[[I2]]) {
// CHECK:       for (int64_t [[J2:.*]] = 0; [[J2]] < 64; ++[[J2]]) {
// CHECK-NEXT:    tlc::cpu::storeChecked(st, "{{.*}}copy.mlir:{{[0-9]+}}:{{[0-9]+}}", A_s, {[[I2]], [[J2]]}, tlc::cpu::load([[R]], {[[I2]], [[J2]]}));
// CHECK:   tlc::cpu::copyRow(&{{.*}}.at({{{.*}}, 0}), {{.*}}.stride[1], &acc.at({{{.*}}, 0}), acc.stride[1], int64_t(64));
// CHECK:   tlc::cpu::store({{.*}}, {{{.*}}}, tlc::cpu::cast<tlc::cpu::f16>(tlc::cpu::loadChecked(st, {{.*}}, acc, {{{.*}}})));
// CHECK:   // T.copy shared.dyn [1, 64] -> local.fragment [64]
// CHECK:   if (tlc::cpu::covers({{.*}}, {1, int64_t(64)}) && tlc::cpu::covers(row, {int64_t(64)})) {
// CHECK:     tlc::cpu::copyRow(&row.at({0}), row.stride[0], &{{.*}}.at({0, 0}), {{.*}}.stride[1], int64_t(64));
// CHECK:   } else {
// CHECK:   for (int64_t [[K2:.*]] = 0; [[K2]] < 64; ++[[K2]]) {
// CHECK:     tlc::cpu::storeChecked(st, {{.*}}, row, {[[K2]]}, tlc::cpu::cast<float>(tlc::cpu::loadChecked(st, {{.*}}, {{.*}}, {0, [[K2]]})));
tile.func @copies(%A: !tile.buffer<[M, 64], f16, global> loc("A"),
                  %C: !tile.buffer<[M, 64], f16, global> loc("C"))
    symbols(M: dynamic) {
  %M = tile.symbol "M"
  %c32 = arith.constant 32 : index
  %g = arith.ceildivsi %M, %c32 : index
  tile.kernel (%bx) grid [%g] threads [128] {
    %A_s = tile.alloc : !tile.buffer<[32, 64], f16, shared.dyn> loc("A_s")
    %acc = tile.alloc : !tile.buffer<[32, 64], f32, local.fragment> loc("acc")
    %y = arith.muli %bx, %c32 : index
    %a = tile.region %A[%y, 0] : !tile.buffer<[M, 64], f16, global> to !tile.buffer<[32, 64], f16, global>
    tile.copy %a to %A_s : !tile.buffer<[32, 64], f16, global> to !tile.buffer<[32, 64], f16, shared.dyn>
    %c = tile.region %C[%y, 0] : !tile.buffer<[M, 64], f16, global> to !tile.buffer<[32, 64], f16, global>
    tile.copy %acc to %c : !tile.buffer<[32, 64], f32, local.fragment> to !tile.buffer<[32, 64], f16, global>
    %first = tile.region %A_s[0, 0] : !tile.buffer<[32, 64], f16, shared.dyn> to !tile.buffer<[1, 64], f16, shared.dyn>
    %row = tile.alloc : !tile.buffer<[64], f32, local.fragment> loc("row")
    tile.copy %first to %row : !tile.buffer<[1, 64], f16, shared.dyn> to !tile.buffer<[64], f32, local.fragment>
  }
}
