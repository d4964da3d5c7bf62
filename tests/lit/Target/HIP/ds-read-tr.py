# T.ds_read_tr16_b64 / T.ds_read_tr8_b64(src): gfx950's transposing LDS
# reads (ds_read_b64_tr_b16 / _b8) as TileLang exposes them, a uint32x2 per
# lane. One wavefront stores a (4 n) x 16 matrix X in LDS and each lane
# reads the chunk its row group's n x 16 block gives it; the lanes' values
# are checked element by element against the lane table of
# Inputs/ds_read_tr_table.py (written from the instruction's description,
# not from tlc's models) on the CPU target's model
# (tlc_device/cpu/transposed_read.h) and on the sim device running the HIP
# code (the sim's own model, tlc_device/hip/common.h). Nothing here ran on
# AMD hardware.
# RUN: tlc-build --check %s
# RUN: tlc-build --target=hip:gfx950 --emit=hip %s | FileCheck %s --check-prefix=HIP
# HIP: const int64_t {{r[_0-9]*}} = (int64_t)(tlc::hip::readTransposed64B16(&s16[
# HIP: (int64_t)(tlc::hip::readTransposed64B8(&s8[
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 7 --save %t/out > /dev/null
# RUN: %python %S/Inputs/ds_read_tr_table.py %t/out | FileCheck %s --check-prefix=TABLE
# TABLE: tr16 table: match
# TABLE: tr16 without the exchange: differs
# TABLE: tr8 table: match
# TABLE: tr8 without the exchange: differs
# RUN: %if hip-toolchain && sim-compiler %{ tlc-build --target=hip:gfx950 -o %t/hip %s > /dev/null %}
# RUN: %if hip-toolchain && sim-compiler %{ llvm-objdump -d %t/hip/tr.hsaco | FileCheck %s --check-prefix=ISA %}
# ISA: ds_read_b64_tr_b16
# ISA: ds_read_b64_tr_b8
# RUN: %if hip-toolchain && sim-compiler %{ tlc-run %t/hip --device sim --seed 7 --save %t/sim > /dev/null %}
# RUN: %if hip-toolchain && sim-compiler %{ %python %S/Inputs/ds_read_tr_table.py %t/sim | FileCheck %s --check-prefix=TABLE %}
import tilelang
import tilelang.language as T


@tilelang.jit
def tr(X16, X8, Y16, Y8):
    X16: T.Tensor[[16, 16], T.float16]
    X8: T.Tensor[[32, 16], T.int8]
    Y16: T.Tensor[[128], T.uint32]
    Y8: T.Tensor[[128], T.uint32]
    with T.Kernel(1, threads=64):
        tx = T.get_thread_binding()
        s16 = T.alloc_shared((16, 16), T.float16)
        s8 = T.alloc_shared((32, 16), T.int8)
        T.copy(X16, s16)
        T.copy(X8, s8)
        T.sync_threads()
        g = tx // 16
        j = tx % 16
        # Row group g's block: n = 4 (8) rows from row n g, lane j at its
        # chunk j (row j // (16 / n), columns n (j % (16 / n)) ..).
        Y16[tx * 2:tx * 2 + 2] = T.ds_read_tr16_b64(s16[4 * g + j // 4, 4 * (j % 4)])
        Y8[tx * 2:tx * 2 + 2] = T.ds_read_tr8_b64(s8[8 * g + j // 2, 8 * (j % 2)])
