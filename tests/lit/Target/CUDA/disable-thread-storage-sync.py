# TL_DISABLE_THREAD_STORAGE_SYNC (issue 14): the program orders its shared
# memory itself. TileLang then skips its ThreadSync pass (the block
# barriers it derives from shared-memory dependences); tlc's
# tile-insert-barriers places none in such a function, and the program's
# own T.sync_threads stay. The config was accepted and ignored: the
# generated code had a barrier before the reversed read and one at the
# top of the loop. Without the config both are placed. The program with
# its own barriers runs on the sim device (its racecheck on) and agrees
# with the CPU target; without them the sim reports the race.
# REQUIRES: sim-compiler
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s | FileCheck %s
# CHECK-LABEL: own_syncs_kernel(
# CHECK: for (int it = 0; it < 4; it += 1) {
# CHECK-NOT: __syncthreads
# CHECK: s[{{.*}}] = x;
# CHECK: __syncthreads();
# CHECK-NOT: __syncthreads
# CHECK: Out[{{.*}}] = x_1;
# CHECK: __syncthreads();
# CHECK-NOT: __syncthreads
# CHECK-LABEL: auto_syncs_kernel(
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines -D own=False %s | FileCheck %s --check-prefix=NONE
# NONE-LABEL: own_syncs_kernel(
# NONE-NOT: __syncthreads
# NONE-LABEL: auto_syncs_kernel(
# NONE: for (int it = 0; it < 4; it += 1) {
# NONE-NEXT: __syncthreads();  // the previous iteration's reads are done
# NONE: s[{{.*}}] = x;
# NONE: __syncthreads();  // shared-memory dependence
# NONE: Out[{{.*}}] = x_1;
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sm90 %s > /dev/null
# RUN: tlc-run %t/sm90 --device sim --verify --reference %t/cpu 2>&1 | FileCheck %s --check-prefix=SIM
# SIM: verify Out: PASS
# SIM: verify Out: PASS
# The same program without its own barriers races on the sim (no barrier
# was added for it):
# RUN: tlc-build --target=cuda:sm_90a --cuda-compiler=none -D own=False -o %t/racy %s > /dev/null
# RUN: not tlc-run %t/racy --kernel=own_syncs --device sim --verify --reference %t/cpu 2>&1 | FileCheck %s --check-prefix=RACE
# RACE: racecheck: {{.*}} with no barrier between them (read-after-write hazard)
import tilelang
import tilelang.language as T


def reversed_rows(own):

    @T.prim_func
    def main(In: T.Tensor((4, 128), "float32"), Out: T.Tensor((4, 128), "float32")):
        with T.Kernel(1, threads=128):
            s = T.alloc_shared((128,), "float32")
            for it in T.serial(4):
                for i in T.Parallel(128):
                    s[i] = In[it, i]
                if own:
                    T.sync_threads()
                for i in T.Parallel(128):
                    Out[it, i] = s[127 - i]
                if own:
                    T.sync_threads()

    return main


@tilelang.jit(pass_configs={tilelang.PassConfigKey.TL_DISABLE_THREAD_STORAGE_SYNC: True})
def own_syncs(own=True):
    return reversed_rows(own)


@tilelang.jit
def auto_syncs(own=True):
    return reversed_rows(own)
