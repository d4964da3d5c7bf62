# --diagnostics-file holds every diagnostic of a build, not only the
# analysis's: a refusal of the CUDA target (a shared-memory budget counted
# after fragment exchanges; a T.gemm operand TileLang refuses as a
# ValueError, with that category) and a host compilation that
# failed (a tool failure, not a refusal of the program), each with its
# source range. With -j, the children's diagnostics are merged into it;
# --emit=cuda writes the same.
# RUN: rm -rf %t && mkdir -p %t
# RUN: not tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cuda --diagnostics-file=%t/cuda.json %s 2>%t/cuda.err
# RUN: FileCheck %s --check-prefix=LOWER < %t/cuda.json
# RUN: not tlc-build --target=cuda:sm_90a --cuda-compiler=none -j2 -o %t/cuda-j --diagnostics-file=%t/cuda-j.json %s 2>%t/cuda-j.err
# RUN: FileCheck %s --check-prefix=LOWER < %t/cuda-j.json
# RUN: not ls %t/cuda-j.json.job0
# RUN: not tlc-build --target=cuda:sm_90a --emit=cuda --diagnostics-file=%t/emit.json %s > /dev/null 2>&1
# RUN: FileCheck %s --check-prefix=LOWER < %t/emit.json
# RUN: printf '#!/bin/sh\necho broken compiler >&2\nexit 1\n' > %t/cxx && chmod +x %t/cxx
# RUN: not env TLC_NO_PCH=1 TLC_NO_CACHE=1 TLC_HOST_CXX=%t/cxx tlc-build --target=cpu -o %t/cpu --diagnostics-file=%t/cpu.json %s 2>%t/cpu.err
# RUN: FileCheck %s --check-prefix=HOST < %t/cpu.json

# LOWER:      "col": 14,
# LOWER-NEXT: "endCol": 38,
# LOWER-NEXT: "endLine": [[@LINE+33]],
# LOWER-NEXT: "file": "{{.*}}diagnostics-file-target.py",
# LOWER-NEXT: "line": [[@LINE+31]],
# LOWER-NEXT: "message": "the kernel needs 262144 bytes of shared memory per block on the CUDA target (81920 for its buffers, 262144 to exchange fragments; areas not live at the same time share bytes); sm_90 allows 232448",
# LOWER-NEXT: "notes": [],
# LOWER-NEXT: "severity": "error",
# LOWER-NEXT: "stage": "artifact"
# LOWER-NEXT: },
# LOWER:      "category": "ValueError",
# LOWER:      "line": [[@LINE+51]],
# LOWER-NEXT: "message": "T.gemm() operand A region of 'A_s' starts at byte offset 4 of its shared tile, which is never a multiple of 16
# LOWER:      "raisedAt": "compile",
# LOWER-NEXT: "severity": "error",
# LOWER-NEXT: "stage": "artifact"
# LOWER-NOT:  toolFailure

# HOST:      "line": [[@LINE+14]],
# HOST-NEXT: "message": "cannot write the CPU artifact of 'scaled_gemm': host compilation failed (exit status 1): {{.*}}broken compiler\n",
# HOST-NEXT: "notes": [],
# HOST-NEXT: "severity": "error",
# HOST-NEXT: "stage": "artifact",
# HOST-NEXT: "toolFailure": true

import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def scaled_gemm(cols=512):
    @T.prim_func
    def main(A: T.Tensor((128, 64), "float16"),
             B: T.Tensor((64, cols), "float16"),
             C: T.Tensor((128, cols), "float32")):
        with T.Kernel(1, threads=128) as bx:
            A_shared = T.alloc_shared((128, 64), "float16")
            B_shared = T.alloc_shared((64, cols), "float16")
            acc = T.alloc_fragment((128, cols), "float32")
            T.copy(A, A_shared)
            T.copy(B, B_shared)
            T.gemm(A_shared, B_shared, acc, clear_accum=True)
            for i in T.Parallel(128):
                for j in T.serial(cols):
                    acc[i, j] *= 2
            T.copy(acc, C)

    return main


@tilelang.jit
def shifted_gemm(a_shift=2):
    @T.prim_func
    def main(A: T.Tensor((32, 64), T.float16), B: T.Tensor((48, 64), T.float16),
             C: T.Tensor((32, 16), T.float32)):
        with T.Kernel(1, threads=128):
            A_s = T.alloc_shared((32, 64), T.float16)
            B_s = T.alloc_shared((48, 64), T.float16)
            acc = T.alloc_fragment((32, 16), T.float32)
            T.copy(A, A_s)
            T.copy(B, B_s)
            T.clear(acc)
            T.gemm(A_s[:, a_shift:a_shift + 32], B_s[8:24, 0:32], acc,
                   transpose_B=True)
            T.copy(acc, C)

    return main


scaled_gemm()
shifted_gemm()
