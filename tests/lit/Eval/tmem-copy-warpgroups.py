# RUN: tlc-build --check --target=cuda:sm_100a %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json --target=cuda:sm_100a %s | FileCheck %s
# A tensor-memory tile of 128 rows drained by more than one warpgroup: the
# columns are shared out among the warpgroups (tcgen05.ld .32x32b gives
# lane r to thread r of each), using the most warpgroups that divide the
# columns evenly. The layout is checked, not refused, whatever the block
# size; only too few rows for the threads of one warpgroup is an error.
import tilelang
import tilelang.language as T


def drain(cols, threads):

    @T.prim_func
    def main(Out: T.Tensor((128, cols), T.float32)):
        with T.Kernel(1, threads=threads):
            acc = T.alloc_tmem((128, cols), T.float32)
            regs = T.alloc_fragment((128, cols), T.float32)
            T.copy(acc, regs)
            T.copy(regs, Out)

    return main


# Two warpgroups, 64 columns: 32 columns each.
two = tilelang.compile(drain(64, 256), target="cuda")
# Three warpgroups cannot split 16 columns; two can.
fallback = tilelang.compile(drain(16, 384), target="cuda")
# One warpgroup: thread r holds the whole row r.
one = tilelang.compile(drain(32, 128), target="cuda")

# CHECK: "instance":"drain(64, 256)","name":"regs"{{.*}}"layout":"tcgen05 32x32b · 32 regs/thread"{{.*}}thread = 128 * (j // 32) + i\nindex  = j % 32
# CHECK: "instance":"drain(16, 384)","name":"regs"{{.*}}"layout":"tcgen05 32x32b · 8 regs/thread"{{.*}}thread = 128 * (j // 8) + i\nindex  = j % 8
# CHECK: "instance":"drain(32, 128)","name":"regs"{{.*}}"layout":"tcgen05 32x32b · 32 regs/thread"{{.*}}thread = i\nindex  = j\n
