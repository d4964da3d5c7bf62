// RUN: tlc-translate --tile-to-cpp %s | FileCheck %s
// T.clc_try_cancel completing on a one-word shared uint64 buffer (upstream
// issue 2602's `mbarrier = T.alloc_shared((1,), T.uint64)`): the CPU target
// completes the response's 16 bytes on that word as on a T.alloc_barrier
// element (the Python form: tests/lit/Eval/clc-shared-uint64-mbarrier.py).
// CHECK: tlc::cpu::Local<uint64_t, 1> [[W:buf_[0-9]+]]_mem({1});
// CHECK: tlc::cpu::clcTryCancel(st, "{{.*}}", &buf.at({0}), &[[W]].at({0}), false);
tile.func @clc(%out: !tile.buffer<[1], i32, global>) {
  tile.kernel (%bx) grid [1] threads [1] {
    %r = tile.alloc : !tile.buffer<[4], ui32, shared>
    %b = tile.alloc : !tile.buffer<[1], ui64, shared>
    tile.clc_try_cancel %r, %b : !tile.buffer<[4], ui32, shared>, !tile.buffer<[1], ui64, shared>
    %x = tile.clc_query first_ctaid_x %r : !tile.buffer<[4], ui32, shared> -> i32
    %c0 = arith.constant 0 : index
    tile.store %x, %out[%c0] : !tile.buffer<[1], i32, global>
  }
}
