# RUN: tlc-build --check %s
# RUN: tlc-build --target=cpu --emit=cpp %s | FileCheck %s
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --seed 5 --save %t/out
# RUN: %python %S/Inputs/intrinsics_ref.py %t/out | FileCheck %s --check-prefix=REF
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda %s | FileCheck %s --check-prefix=PAD
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda -Dpad=0 %s | FileCheck %s --check-prefix=CUDA
# tile.intrinsic primitives on the CPU target outside per-thread code:
# T.any_of / T.all_of over bool regions of a block-sparse mask (as
# blocksparse GEMMs guard their K blocks), T.annotate_safe_value (reads
# of X outside the tensor give 2.5; the CUDA target refuses a non-zero
# safe value and accepts zero, what its guarded reads give), the
# ordered atomics (max, min, or, load, store), and T.dp4a from an int8
# tile. Inputs/intrinsics_ref.py recomputes every output with NumPy.
import tilelang
import tilelang.language as T


@tilelang.jit
def block_flags(X, Mask, Bytes, M=96, N=64, KB=5, block_M=32, pad=2.5):
    X: T.Tensor((M, N), T.float32)
    Mask: T.Tensor((M // block_M, KB), T.bool)
    Bytes: T.Tensor((M, 8), T.int8)
    Y = T.empty((M, N), T.float32)
    Flags = T.empty((M // block_M, 2), T.int32)
    Stats = T.empty((4,), T.int32)
    Dot = T.empty((M, 2), T.int32)
    with T.Kernel(M // block_M, threads=128) as by:
        S = T.alloc_shared((block_M, N), T.float32)
        # CHECK: // T.annotate_safe_value(): guarded reads of the tensors named give their value out of range
        # CHECK: tlc::cpu::loadOr(X, {{.*}}, tlc::cpu::cast<float>(2.5))
        # PAD: ? float({{.*}}X[{{.*}}) : float((float)(2.5f));
        # CUDA: // T.annotate_safe_value: no code
        T.annotate_safe_value({X: pad})
        for i, j in T.Parallel(block_M, N):
            S[i, j] = X[by * block_M + i - 7, j]
        # CHECK: bool [[ANY:any[_0-9]*]] = false;
        # CHECK: [[ANY]] = [[ANY]] || bool(
        if T.any_of(Mask[by, 1:4]):
            for i, j in T.Parallel(block_M, N):
                Y[by * block_M + i, j] = S[i, j]
        else:
            for i, j in T.Parallel(block_M, N):
                Y[by * block_M + i, j] = -1.0
        Flags[by, 0] = T.any_of(Mask[by, :])
        # CHECK: bool [[ALL:all[_0-9]*]] = true;
        Flags[by, 1] = T.all_of(Mask[by, 0:2])
        # CHECK: tlc::cpu::atomicUpdateGuarded(
        T.atomic_max(Stats[0], by * 7 - 3)
        T.atomic_min(Stats[1], by * 7 - 3)
        T.atomic_or(Stats[2], 1 << by)
        prev = T.atomic_load(Stats[2])
        T.atomic_store(Stats[3], prev * 0 + 11)
        acc = T.alloc_local((2,), T.int32)
        for r in T.serial(block_M):
            acc[0] = 0
            acc[1] = 0
            # CHECK: // T.dp4a
            T.dp4a(Bytes[by * block_M + r, 0], Bytes[by * block_M + r, 4], acc[0])
            T.dp4a(Bytes[by * block_M + r, 4], Bytes[by * block_M + r, 4], acc[1])
            Dot[by * block_M + r, 0] = acc[0]
            Dot[by * block_M + r, 1] = acc[1]
    return Y, Flags, Stats, Dot
# REF: Y PASS
# REF: Flags PASS
# REF: Stats PASS
# REF: Dot PASS
