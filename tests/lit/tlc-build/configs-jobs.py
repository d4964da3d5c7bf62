# --configs with -j 2: the list is split into two contiguous parts, each
# built by a child tlc-build; the status lines keep the list's indices and
# order, and every line's files are those of the one-process run (-j 1).
# A malformed line is reported with its line number in the whole list, after
# the lines before it were built.
# RUN: rm -rf %t && mkdir -p %t/one %t/two
# RUN: for d in one two; do \
# RUN:   echo "{\"defines\": [\"cols=512\"], \"out\": \"%t/$d/a\", \"diagnostics_file\": \"%t/$d/a.json\", \"stdout\": \"%t/$d/a.out\", \"stderr\": \"%t/$d/a.err\"}" > %t/$d/list.jsonl; \
# RUN:   echo "{\"defines\": [\"cols=256\"], \"out\": \"%t/$d/b\", \"stderr\": \"%t/$d/b.err\"}" >> %t/$d/list.jsonl; \
# RUN:   echo "" >> %t/$d/list.jsonl; \
# RUN:   echo "{\"defines\": [\"cols=128\"], \"out\": \"%t/$d/c\", \"diagnostics_file\": \"%t/$d/c.json\"}" >> %t/$d/list.jsonl; \
# RUN:   echo "{\"defines\": [\"cols=64\"], \"out\": \"%t/$d/d\", \"stdout\": \"%t/$d/d.out\"}" >> %t/$d/list.jsonl; \
# RUN: done
# RUN: not tlc-build %s --target=cuda:sm_90a --cuda-compiler=none --kernel=scaled_gemm --defines-only --configs=%t/one/list.jsonl > %t/one/status
# RUN: not tlc-build %s --target=cuda:sm_90a --cuda-compiler=none --kernel=scaled_gemm --defines-only -j2 --configs=%t/two/list.jsonl > %t/two/status
# RUN: FileCheck %s < %t/two/status
# RUN: sed 's|%t/one|DIR|g' %t/one/status > %t/one.status
# RUN: sed 's|%t/two|DIR|g' %t/two/status > %t/two.status
# RUN: diff %t/one.status %t/two.status
# RUN: diff %t/one/a.json %t/two/a.json
# RUN: diff %t/one/a.err %t/two/a.err
# RUN: diff %t/one/c.json %t/two/c.json
# RUN: diff %t/one/b/scaled_gemm.cu %t/two/b/scaled_gemm.cu
# RUN: diff %t/one/c/scaled_gemm.cu %t/two/c/scaled_gemm.cu
# RUN: diff %t/one/d/scaled_gemm.cu %t/two/d/scaled_gemm.cu
# RUN: FileCheck %s --check-prefix=WROTE < %t/two/d.out
# RUN: not ls %t/two/a/scaled_gemm.cu
# RUN: cp %t/two/list.jsonl %t/bad.jsonl
# RUN: echo '{"defines": "cols=1", "out": "%t/e"}' >> %t/bad.jsonl
# RUN: rm -rf %t/two/b %t/two/d
# RUN: not tlc-build %s --target=cuda:sm_90a --cuda-compiler=none --kernel=scaled_gemm --defines-only -j3 --configs=%t/bad.jsonl > %t/bad.out 2> %t/bad.err
# RUN: FileCheck %s --check-prefix=BAD < %t/bad.err
# RUN: FileCheck %s --check-prefix=BADOUT < %t/bad.out
# RUN: ls %t/two/b/scaled_gemm.cu %t/two/d/scaled_gemm.cu

# CHECK:      {"index": 0, "status": 1}
# CHECK-NEXT: wrote {{.*}}/two/b/scaled_gemm.cu (no binary)
# CHECK-NEXT: {"index": 1, "status": 0}
# CHECK-NEXT: wrote {{.*}}/two/c/scaled_gemm.cu (no binary)
# CHECK-NEXT: {"index": 2, "status": 0}
# CHECK-NEXT: {"index": 3, "status": 0}
# CHECK-EMPTY:
# WROTE: wrote {{.*}}/two/d/scaled_gemm.cu (no binary)
# BAD: tlc-build: error: --configs: {{.*}}bad.jsonl:6: "defines" is not a list
# BADOUT: {"index": 3, "status": 0}

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
