# Issue 2529: on sm_90a a T.copy of a whole 1-D shared tile into
# a 1-D global tensor is a bulk store (tile-plan-tma's tile.bulk_store):
# after fence.proxy.async and a barrier, thread 0 stores the run of whole
# 16-byte chunks inside the tensor with cp.async.bulk (no tensor map) and
# waits until it is read; the threads store the tail (a ragged last block,
# or everything when the global address is not 16-byte aligned). A second
# copy after the first (`twice`) gets a barrier after the first one's read.
# tile-insert-barriers places none beside the copies' own (before the
# first, whose tile the threads wrote, and before the element loop that
# writes the tile again after the first copy read it: two in a row before).
# Not planned: sm_80, disable_tma, a tile whose bytes are no multiple of 16.
# RUN: tlc-build --emit=lowered --target=cuda:sm_90a %s | FileCheck %s --check-prefix=PLAN
# PLAN: tile.copy {{.*}}tile.bulk_store{{.*}} : !tile.buffer<[256], f32, shared.dyn> to !tile.buffer<[256], f32, global>
# RUN: tlc-build --emit=lowered --target=cuda:sm_80 %s | FileCheck %s --check-prefix=NO
# RUN: tlc-build --emit=lowered --target=cuda:sm_90a --pass-config=tl.disable_tma_lower=True %s | FileCheck %s --check-prefix=NO
# RUN: tlc-build --emit=lowered --target=cuda:sm_90a -Dblock=100 -Ddtype=T.float16 %s | FileCheck %s --check-prefix=NO
# NO-NOT: tile.bulk_store
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a --no-source-lines -Dtwice=True %s | FileCheck %s
# CHECK: #include "tlc_device/cuda/tma.h"
# CHECK-NOT: __syncthreads();
# CHECK: tlc::cuda::fenceProxyAsync();  // the tile, to the copy engine
# CHECK-NEXT: __syncthreads();
# CHECK: const int [[VALID:valid[_0-9]*]] = (int)max(0LL, min(256LL, 1000LL - [[START:start[_0-9]*]]));
# CHECK: const int [[HEAD:head[_0-9]*]] = [[START]] >= 0 && reinterpret_cast<uintptr_t>(b + [[START]]) % 16 == 0 ? [[VALID]] / 4 * 4 : 0;
# CHECK: if (tid == 0 && [[HEAD]] > 0) {
# CHECK-NEXT: tlc::cuda::bulkStore(b + [[START]], shared, [[HEAD]] * 4);
# CHECK-NEXT: tlc::cuda::tmaStoreCommit();
# CHECK-NEXT: tlc::cuda::tmaStoreWaitRead();  // the tile is read
# CHECK: for (int [[E:e[_0-9]*]] = [[HEAD]] + tid; [[E]] < [[VALID]]; [[E]] += 128)
# CHECK: __syncthreads();  // the tile's bytes may be written again
# CHECK-NOT: __syncthreads();
# CHECK: tlc::cuda::fenceProxyAsync();  // the tile, to the copy engine
# CHECK-NEXT: __syncthreads();
# CHECK: tlc::cuda::bulkStore(c + {{.*}}, shared,
# CHECK-NOT: may be written again
# CHECK: }
#
# On the sim (bulk stores checked for alignment and size, racecheck on)
# against the CPU target: a ragged last block (1000 = 3 x 256 + 232),
# one with a 1-element thread tail (1001), a misaligned start (shift 1:
# the threads store all), and f16 with two copies.
# RUN: rm -rf %t && mkdir -p %t
# RUN: %if sim-compiler %{ tlc-build --target=cpu -o %t/cpu0 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sim0 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sim0 --device sim --reference %t/cpu0 --verify | FileCheck %s --check-prefix=SIM %}
# RUN: %if sim-compiler %{ tlc-build --target=cpu -Dn=1001 -Dshift=1 -o %t/cpu1 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -Dn=1001 -Dshift=1 -o %t/sim1 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sim1 --device sim --reference %t/cpu1 --verify | FileCheck %s --check-prefix=SIM %}
# RUN: %if sim-compiler %{ tlc-build --target=cpu -Dn=1001 -o %t/cpu2 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -Dn=1001 -o %t/sim2 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sim2 --device sim --reference %t/cpu2 --verify | FileCheck %s --check-prefix=SIM %}
# RUN: %if sim-compiler %{ tlc-build --target=cpu -Dn=600 -Dblock=128 -Ddtype=T.float16 -Dtwice=True -o %t/cpu3 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -Dn=600 -Dblock=128 -Ddtype=T.float16 -Dtwice=True -o %t/sim3 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sim3 --device sim --reference %t/cpu3 --verify | FileCheck %s --check-prefixes=SIM,SIM2 %}
# SIM: verify b: PASS
# SIM2: verify c: PASS
import tilelang
import tilelang.language as T

n = 1000
block = 256
shift = 0
dtype = "float32"
twice = False


@tilelang.jit
def store_1d(n=n, block=block, shift=shift, dtype=dtype, twice=twice):

    @T.prim_func
    def main(b: T.Tensor((n,), dtype), c: T.Tensor((n,), dtype)):
        with T.Kernel(T.ceildiv(n, block), threads=128) as bx:
            shared = T.alloc_shared((block,), dtype)
            for i in T.Parallel(block):
                shared[i] = T.cast(bx * block + i, dtype)
            T.copy(shared, b[bx * block + shift])
            if twice:
                for i in T.Parallel(block):
                    shared[i] = shared[i] * 2
                T.copy(shared, c[bx * block])

    return main
