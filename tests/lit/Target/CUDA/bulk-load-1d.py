# Issue 2529's other half: on sm_90a a T.copy of a region of a 1-D global
# tensor into a whole 1-D shared tile is a bulk load (tile-plan-tma's
# tile.bulk_load = B, an mbarrier at byte B after the planned shared
# memory): thread 0 initialises the mbarrier, every thread fences the async
# proxy and meets at a barrier, thread 0 loads the run of whole 16-byte
# chunks inside the tensor with cp.async.bulk completing on the mbarrier
# (or only arrives when the global address is not 16-byte aligned), the
# threads load the tail and zero what lies outside the tensor, every thread
# waits for the mbarrier, and a barrier follows. A second load (`twice`)
# gets an mbarrier of its own. tile-insert-barriers places no barrier next
# to either (their own stand there).
# Not planned: sm_80, disable_tma, a tile whose bytes are no multiple of 16,
# a tensor the kernel writes, a sub-byte element type.
# RUN: tlc-build --emit=lowered --target=cuda:sm_90a %s | FileCheck %s --check-prefix=PLAN
# PLAN: tile.kernel{{.*}}tile.shared_bytes = 1032
# PLAN: tile.copy {{.*}}tile.bulk_load = 1024 : i64{{.*}} : !tile.buffer<[256], f32, global> to !tile.buffer<[256], f32, shared.dyn>
# RUN: tlc-build --emit=lowered --target=cuda:sm_80 %s | FileCheck %s --check-prefix=NO
# RUN: tlc-build --emit=lowered --target=cuda:sm_90a --pass-config=tl.disable_tma_lower=True %s | FileCheck %s --check-prefix=NO
# RUN: tlc-build --emit=lowered --target=cuda:sm_90a -Dblock=100 -Ddtype=T.float16 %s | FileCheck %s --check-prefix=NO
# RUN: tlc-build --emit=lowered --target=cuda:sm_90a -Dinplace=True %s | FileCheck %s --check-prefix=NO
# RUN: tlc-build --emit=lowered --target=cuda:sm_90a -Ddtype=T.int4 %s | FileCheck %s --check-prefix=NO
# NO-NOT: tile.bulk_load
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a --no-source-lines -Dtwice=True %s | FileCheck %s
# CHECK: #include "tlc_device/cuda/tma.h"
# CHECK: uint64_t *[[BAR:bar[_0-9]*]] = reinterpret_cast<uint64_t *>(smem + 1024);
# CHECK: const int [[VALID:valid[_0-9]*]] = (int)max(0LL, min(256LL, 1000LL - [[START:start[_0-9]*]]));
# CHECK: const int [[HEAD:head[_0-9]*]] = [[START]] >= 0 && reinterpret_cast<uintptr_t>(a + [[START]]) % 16 == 0 ? [[VALID]] / 4 * 4 : 0;
# CHECK: if (tid == 0) { tlc::cuda::mbarrierInit([[BAR]], 1); tlc::cuda::mbarrierInitFence(); }
# CHECK-NEXT: tlc::cuda::fenceProxyAsync();
# CHECK-NEXT: __syncthreads();
# CHECK-NEXT: if (tid == 0) {
# CHECK-NEXT: if ([[HEAD]] > 0) {
# CHECK-NEXT: tlc::cuda::mbarrierArriveExpectTx([[BAR]], [[HEAD]] * 4);
# CHECK-NEXT: tlc::cuda::bulkLoad(shared, a + [[START]], [[HEAD]] * 4, [[BAR]]);
# CHECK: tlc::cuda::mbarrierArrive([[BAR]]);
# CHECK: for (int [[E:e[_0-9]*]] = [[HEAD]] + tid; [[E]] < 256; [[E]] += 128)
# CHECK-NEXT: shared{{\[}}[[E]]] = (([[E]] < [[VALID]] && [[START]] + [[E]] >= 0) ? a{{\[}}[[START]] + [[E]]] : 0);
# CHECK-NEXT: tlc::cuda::mbarrierWait([[BAR]], 0);  // the copy landed
# CHECK: __syncthreads();  // the threads' part of the tile is written
# CHECK-NOT: __syncthreads();
# CHECK: b{{\[}}
# The second load: its own mbarrier, no barrier placed before it but its own.
# CHECK-NOT: __syncthreads();
# CHECK: reinterpret_cast<uint64_t *>(smem + 1032);
# CHECK: tlc::cuda::bulkLoad(shared,
#
# On the sim (bulk copies trapped unless 16-byte aligned and sized,
# racecheck on, mbarrier transaction bytes checked) against the CPU target:
# a ragged last block (1000 = 3 x 256 + 232), a 1-element thread tail
# (1001: 232 elements by the copy engine, 1 by the threads, 23 zeroed), a
# misaligned start (shift 1: the threads load all), a start before the
# tensor (shift -3: the first block's 3 elements zeroed, misaligned after),
# and f16 with two loads into the same tile.
# RUN: rm -rf %t && mkdir -p %t
# RUN: %if sim-compiler %{ tlc-build --target=cpu -o %t/cpu0 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sim0 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sim0 --device sim --reference %t/cpu0 --verify | FileCheck %s --check-prefix=SIM %}
# RUN: %if sim-compiler %{ tlc-build --target=cpu -Dn=1001 -o %t/cpu1 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -Dn=1001 -o %t/sim1 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sim1 --device sim --reference %t/cpu1 --verify | FileCheck %s --check-prefix=SIM %}
# RUN: %if sim-compiler %{ tlc-build --target=cpu -Dn=1001 -Dshift=1 -o %t/cpu2 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -Dn=1001 -Dshift=1 -o %t/sim2 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sim2 --device sim --reference %t/cpu2 --verify | FileCheck %s --check-prefix=SIM %}
# RUN: %if sim-compiler %{ tlc-build --target=cpu -Dshift=-3 -o %t/cpu3 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -Dshift=-3 -o %t/sim3 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sim3 --device sim --reference %t/cpu3 --verify | FileCheck %s --check-prefix=SIM %}
# RUN: %if sim-compiler %{ tlc-build --target=cpu -Dn=600 -Dblock=128 -Ddtype=T.float16 -Dtwice=True -o %t/cpu4 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -Dn=600 -Dblock=128 -Ddtype=T.float16 -Dtwice=True -o %t/sim4 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sim4 --device sim --reference %t/cpu4 --verify | FileCheck %s --check-prefixes=SIM,SIM2 %}
# SIM: verify b: PASS
# SIM2: verify c: PASS
import tilelang
import tilelang.language as T

n = 1000
block = 256
shift = 0
dtype = "float32"
twice = False
inplace = False


@tilelang.jit
def load_1d(n=n, block=block, shift=shift, dtype=dtype, twice=twice, inplace=inplace):

    @T.prim_func
    def main(a: T.Tensor((n,), dtype), b: T.Tensor((n,), dtype), c: T.Tensor((n,), dtype)):
        with T.Kernel(T.ceildiv(n, block), threads=128) as bx:
            shared = T.alloc_shared((block,), dtype)
            T.copy(a[bx * block + shift], shared)
            # Each thread reads elements other threads loaded.
            for i in T.Parallel(block):
                b[bx * block + i] = shared[block - 1 - i] + shared[i]
            if twice:
                T.copy(a[bx * block], shared)
                for i in T.Parallel(block):
                    c[bx * block + i] = shared[(i + 7) % block]
            if inplace:
                for i in T.Parallel(block):
                    a[bx * block + i] = shared[i]

    return main
