# RUN: tlc-build --target=cuda:sm_100a --emit=cuda --no-source-lines %s | FileCheck %s
# RUN: tlc-build --target=cpu --emit=cpp --no-source-lines %s | FileCheck %s --check-prefix=CPU
#
# T.deallocate_tmem(buffer) (TileLang: free the buffer at the call instead
# of at the end of the block). tlc allocates a kernel's tensor memory as
# one block of columns (warp 0's tcgen05.alloc of a power of two, at
# least 32): when the kernel's top-level T.deallocate_tmem calls name
# every tensor memory buffer, the last of them frees the columns (every
# tcgen05 operation done first: tcgen05.fence::before_thread_sync and a
# block barrier, then warp 0's tcgen05.dealloc) and the end of the kernel
# frees nothing more. Otherwise the buffer's columns are freed with the
# rest at the end of the kernel.
#
# CHECK-LABEL: freed_kernel(
# CHECK: tlc::cuda::tmemAlloc(&[[SLOT:tmemSlot[_0-9]*]], 128);
# CHECK-NEXT: tlc::cuda::tmemRelinquishAllocPermit();
# CHECK: // T.deallocate_tmem: every tensor memory buffer is freed here, so the kernel's columns are
# CHECK-NEXT: tlc::cuda::tcgen05FenceBefore();
# CHECK-NEXT: __syncthreads();
# CHECK-NEXT: if (threadIdx.x / 32 == 0) tlc::cuda::tmemDealloc({{.*}}, 128);
# CHECK-NOT: tmemDealloc
# CHECK-LABEL: partly_kernel(
# CHECK: tlc::cuda::tmemAlloc(&{{.*}}, 256);
# CHECK: // T.deallocate_tmem: its columns are freed with the kernel's other tensor memory
# CHECK-NOT: tmemDealloc
# CHECK: // Every tcgen05 operation of the block is done: warp 0 frees the tensor memory
# CHECK: if (threadIdx.x / 32 == 0) tlc::cuda::tmemDealloc({{.*}}, 256);
#
# The CPU target's tensor memory is the block's own memory:
# CPU: T.deallocate_tmem(): no-op on the CPU
import tilelang.language as T


@T.prim_func
def freed():
    with T.Kernel(1, threads=128):
        tmem = T.alloc_tmem((128, 128), T.float32)
        T.deallocate_tmem(tmem)


@T.prim_func
def partly():
    with T.Kernel(1, threads=128):
        acc = T.alloc_tmem((128, 128), T.float32)
        other = T.alloc_tmem((128, 64), T.float32)
        T.deallocate_tmem(acc)
