# --configs builds one instance per line of a JSON-lines file in one
# process; each gives what its own tlc-build run gives: the same
# artifacts, diagnostics file and stderr (a refusal of the CUDA target for
# cols=512; cols=256 and cols=128 build), and a status line per
# configuration. A malformed line is an error naming it.
# RUN: rm -rf %t && mkdir -p %t
# RUN: echo '{"defines": ["cols=512"], "out": "%t/a", "diagnostics_file": "%t/a.json", "stdout": "%t/a.out", "stderr": "%t/a.err"}' > %t/list.jsonl
# RUN: echo '{"defines": ["cols=256"], "out": "%t/b", "diagnostics_file": "%t/b.json", "stdout": "%t/b.out", "stderr": "%t/b.err"}' >> %t/list.jsonl
# RUN: echo '{"defines": ["cols=128"], "out": "%t/c"}' >> %t/list.jsonl
# RUN: not tlc-build %s --target=cuda:sm_90a --cuda-compiler=none --kernel=scaled_gemm --defines-only --configs=%t/list.jsonl > %t/status
# RUN: FileCheck %s < %t/status
# RUN: not tlc-build %s --target=cuda:sm_90a --cuda-compiler=none --kernel=scaled_gemm --defines-only -Dcols=512 -o %t/one-a --diagnostics-file=%t/one-a.json > %t/one-a.out 2> %t/one-a.err
# RUN: tlc-build %s --target=cuda:sm_90a --cuda-compiler=none --kernel=scaled_gemm --defines-only -Dcols=256 -o %t/one-b --diagnostics-file=%t/one-b.json > %t/one-b.out 2> %t/one-b.err
# RUN: tlc-build %s --target=cuda:sm_90a --cuda-compiler=none --kernel=scaled_gemm --defines-only -Dcols=128 -o %t/one-c
# RUN: diff %t/a.json %t/one-a.json
# RUN: diff %t/a.err %t/one-a.err
# RUN: diff %t/a.out %t/one-a.out
# RUN: diff %t/b.json %t/one-b.json
# RUN: diff %t/b.err %t/one-b.err
# RUN: diff %t/b/scaled_gemm.cu %t/one-b/scaled_gemm.cu
# RUN: diff %t/b/scaled_gemm.json %t/one-b/scaled_gemm.json
# RUN: diff %t/c/scaled_gemm.cu %t/one-c/scaled_gemm.cu
# RUN: not ls %t/a/scaled_gemm.cu
# RUN: FileCheck %s --check-prefix=ERR < %t/a.err
# RUN: echo '{"defines": "cols=1", "out": "%t/d"}' > %t/bad.jsonl
# RUN: not tlc-build %s --kernel=scaled_gemm --configs=%t/bad.jsonl 2>&1 | FileCheck %s --check-prefix=BAD

# CHECK:      {"index": 0, "status": 1}
# CHECK-NEXT: {"index": 1, "status": 0}
# CHECK-NEXT: wrote {{.*}}/c/scaled_gemm.cu (no binary)
# CHECK-NEXT: {"index": 2, "status": 0}
# ERR: configs.py:[[@LINE+12]]:14: error: the kernel needs 262144 bytes of shared memory per block
# BAD: tlc-build: error: --configs: {{.*}}bad.jsonl:1: "defines" is not a list

import tilelang
import tilelang.language as T


def scaled_gemm(cols):
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
