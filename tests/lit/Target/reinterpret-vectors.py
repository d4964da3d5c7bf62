# T.reinterpret between types of one width and different lane counts is a
# bit cast: uint32x2 <-> float16x4 / bfloat16x4 (the use of
# T.ds_read_tr16_b64's value), uint32x2 -> uint64 -> int8x8. Lane 0 holds
# the lowest bits, as NumPy's `.view()` orders them. Each lane makes two
# words of varied bits (NaN and infinity patterns among them) from X and
# stores them reinterpreted; Inputs/reinterpret_check.py recomputes the
# words and compares every output bit for bit with the NumPy views (and
# checks that the opposite lane order would not match). On the CPU target,
# and on the sim device for cuda:sm_80 and hip:gfx942; tr_words reads LDS
# with gfx950's ds_read_b64_tr_b16 and reinterprets the result as
# float16x4 / bfloat16x4, on the CPU target and gfx950 on the sim, against
# the lane table of HIP/ds-read-tr.py's rule.
# RUN: tlc-build --check %s
# RUN: tlc-build --target=hip:gfx950 --emit=hip --kernel=tr_words %s | FileCheck %s --check-prefix=HIP
# HIP: (int64_t)(tlc::hip::readTransposed64B16(&s[
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --kernel=words --save %t/cpu-out > /dev/null
# RUN: %python %S/Inputs/reinterpret_check.py %t/cpu-out | FileCheck %s
# RUN: tlc-run %t/cpu --kernel=tr_words --save %t/cpu-tr > /dev/null
# RUN: %python %S/Inputs/reinterpret_check.py %t/cpu-tr tr | FileCheck %s --check-prefix=TR
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none --kernel=words -o %t/sm80 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm80 --device sim --save %t/sm80-out > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/reinterpret_check.py %t/sm80-out | FileCheck %s %}
# RUN: %if sim-compiler && hip-toolchain %{ tlc-build --target=hip:gfx942 --kernel=words -o %t/gfx942 %s > /dev/null %}
# RUN: %if sim-compiler && hip-toolchain %{ tlc-run %t/gfx942 --device sim --save %t/gfx942-out > /dev/null %}
# RUN: %if sim-compiler && hip-toolchain %{ %python %S/Inputs/reinterpret_check.py %t/gfx942-out | FileCheck %s %}
# RUN: %if sim-compiler && hip-toolchain %{ tlc-build --target=hip:gfx950 --kernel=tr_words -o %t/gfx950 %s > /dev/null %}
# RUN: %if sim-compiler && hip-toolchain %{ tlc-run %t/gfx950 --device sim --save %t/gfx950-tr > /dev/null %}
# RUN: %if sim-compiler && hip-toolchain %{ %python %S/Inputs/reinterpret_check.py %t/gfx950-tr tr | FileCheck %s --check-prefix=TR %}
# CHECK: H: match
# CHECK-NEXT: B: match
# CHECK-NEXT: W: match
# CHECK-NEXT: D: match
# CHECK-NEXT: I8: match
# CHECK-NEXT: H, lane 0 highest: {{[0-9]+}} of 256 differ
# CHECK-NEXT: I8, lane 0 highest: {{[0-9]+}} of 512 differ
# TR: H: match
# TR-NEXT: B: match
# TR-NEXT: H, lane 0 highest: {{[0-9]+}} of 256 differ
import tilelang
import tilelang.language as T


@tilelang.jit
def words(X, H, B, W, I8, D):
    X: T.Tensor[[128], T.uint32]
    H: T.Tensor[[256], T.float16]
    B: T.Tensor[[256], T.bfloat16]
    W: T.Tensor[[128], T.uint32]
    I8: T.Tensor[[512], T.int8]
    D: T.Tensor[[64], T.uint64]
    with T.Kernel(1, threads=64):
        tx = T.get_thread_binding()
        w0 = X[2 * tx] * T.uint32(2654435761) + T.uint32(40503)
        w1 = X[2 * tx + 1] * T.uint32(2246822519) + T.uint32(3266489917)
        w = T.uint32x2(w0, w1)
        H[4 * tx:4 * tx + 4] = T.reinterpret(w, T.float16x4)
        B[4 * tx:4 * tx + 4] = T.reinterpret(w, "bfloat16x4")
        # Back: four halves as two words.
        h = T.reinterpret(w, T.float16x4)
        W[2 * tx:2 * tx + 2] = T.reinterpret(h, T.uint32x2)
        # 8 bytes as one scalar, and the scalar as 8 bytes.
        d = T.reinterpret(w, T.uint64)
        D[tx] = d
        I8[8 * tx:8 * tx + 8] = T.reinterpret(d, T.int8x8)


@tilelang.jit
def tr_words(S, H, B):
    S: T.Tensor[[16, 16], T.float16]
    H: T.Tensor[[256], T.float16]
    B: T.Tensor[[256], T.bfloat16]
    with T.Kernel(1, threads=64):
        tx = T.get_thread_binding()
        s = T.alloc_shared((16, 16), T.float16)
        T.copy(S, s)
        T.sync_threads()
        g = tx // 16
        j = tx % 16
        # Row group g's 4 x 16 block, lane j at its chunk j: lane tx gets
        # column j of rows 4 g .. 4 g + 3.
        r = T.ds_read_tr16_b64(s[4 * g + j // 4, 4 * (j % 4)])
        H[4 * tx:4 * tx + 4] = T.reinterpret(r, T.float16x4)
        B[4 * tx:4 * tx + 4] = T.reinterpret(r, "bfloat16x4")
