# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# Group C (+F): every scalar/array allocation kind in one kernel: static
# shared bins (scope="shared"), T.alloc_fragment with an int shape,
# T.alloc_local, T.alloc_var with an init value; shared and global atomics
# build a 256-bin histogram of uint8 data.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1, 2])
def histogram(N, bins=256, block=4096, threads=256):
    per_thread = block // threads

    @T.prim_func
    def main(Data: T.Tensor((N,), T.uint8), Hist: T.Tensor((bins,), T.int32),
             NonZero: T.Tensor((1,), T.int32)):
        with T.Kernel(T.ceildiv(N, block), threads=threads) as bx:
            local_bins = T.alloc_shared((bins,), T.int32, scope="shared")
            staged = T.alloc_fragment(block, T.uint8)
            keys = T.alloc_local((per_thread,), T.int32)
            seen = T.alloc_var(T.int32, init=0)
            tx = T.get_thread_binding()

            T.clear(local_bins)
            T.copy(Data[bx * block], staged)
            for i in T.Parallel(block):
                if bx * block + i < N:
                    T.atomic_add(local_bins[T.cast(staged[i], T.int32)], 1)

            base = bx * block + tx * per_thread
            for v in T.serial(per_thread):
                keys[v] = T.if_then_else(base + v < N, T.cast(Data[base + v], T.int32), 0)
            for v in T.serial(per_thread):
                if keys[v] != 0:
                    seen += 1
            T.atomic_add(NonZero[0], seen)

            T.sync_threads()
            if tx < bins:
                T.atomic_add(Hist[tx], local_bins[tx])

    return main


kernel = histogram(1 << 20)

# CHECK: "name":"Data","kind":"tensor","shape":[1048576],"dtype":"uint8","scope":"global","layout":null
# CHECK: "name":"Hist","kind":"tensor","shape":[256],"dtype":"int32","scope":"global"
# CHECK: "name":"bx","kind":"kernel","shape":[256],{{.*}}"detail":"256 threads"
# CHECK: "name":"local_bins","kind":"buffer","shape":[256],"dtype":"int32","scope":"shared","layout":"linear"
# CHECK: "name":"staged","kind":"buffer","shape":[4096],"dtype":"uint8","scope":"local.fragment","layout":"parallel · 16 regs/thread"
# CHECK: "name":"keys","kind":"buffer","shape":[16],"dtype":"int32","scope":"local","layout":null
# CHECK: "name":"seen","kind":"buffer","shape":[1],"dtype":"int32","scope":"local.var","layout":null
