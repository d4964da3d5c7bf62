# RUN: tlc-build --target=cpu --emit=cpp %s | FileCheck %s
# RUN: rm -rf %t && mkdir -p %t/in && tlc-build --target=cpu -o %t/art %s
# RUN: %python %S/Inputs/loop_break_ref.py inputs %t/in
# RUN: tlc-run %t/art --inputs %t/in --save %t/out
# RUN: %python %S/Inputs/loop_break_ref.py check %t/out | FileCheck %s --check-prefix=REF
# `break` and `continue` on a run-time condition in the serial loops of a
# kernel the CPU target runs as one executor per block (threads=1): C++'s
# break/continue of the loop the target writes (the CPU target refused
# T.loop_break / T.loop_continue outside a threaded body). Each block reads
# its own A; Inputs/loop_break_ref.py writes A and recomputes B in Python.
# REF: B equal
import tilelang.language as T


@T.prim_func
def loop_exit(A: T.Tensor((4,), "int32"), B: T.Tensor((4, 4), "int32")):
    with T.Kernel(4, threads=1) as bx:
        total = T.alloc_var("int32", init=0)
        # CHECK: for (int64_t [[I:[a-z_0-9]+]] = 0; [[I]] < 8; [[I]] += 1) {
        # CHECK: if (
        # CHECK-NEXT: break;
        for i in T.serial(8):
            if i == A[bx]:
                break
            total += i
        B[bx, 0] = total
        skipped = T.alloc_var("int32", init=0)
        # CHECK: continue;
        for i in T.serial(8):
            if i % 3 == A[bx] % 3:
                continue
            skipped += i
        B[bx, 1] = skipped
        # A break leaves the inner loop only.
        pairs = T.alloc_var("int32", init=0)
        for i in T.serial(4):
            for j in T.serial(8):
                if j > i + A[bx]:
                    break
                pairs += 1
        B[bx, 2] = pairs
        # A while loop tests its condition again after a continue.
        n = T.alloc_var("int32", init=0)
        k = T.alloc_var("int32", init=0)
        while k < 20:
            k += 1
            if k % 2 == 0:
                continue
            if k > A[bx] + 5:
                break
            n += k
        B[bx, 3] = n
