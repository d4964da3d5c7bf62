# RUN: tlc-build --emit=ast %s | FileCheck %s
# RUN: tlc-build --emit=ast %s > %t.tlc
# RUN: %python %scripts/ast_dump.py %s > %t.cpython
# RUN: diff %t.tlc %t.cpython

# CHECK: [[@LINE+1]]:0 Import
import tilelang.language as T

# CHECK-NEXT: [[@LINE+3]]:0 FunctionDef
# CHECK-NEXT: [[@LINE+3]]:4 With
@T.prim_func
def kernel(A, B):
    with T.Kernel(8, threads=128) as bx:
        # CHECK-NEXT: [[@LINE+1]]:8 For
        for i in T.Parallel(128):
            # CHECK-NEXT: [[@LINE+1]]:12 If
            if i < 64:
                # CHECK-NEXT: [[@LINE+1]]:16 Assign
                B[bx, i] = A[bx, i]
            # CHECK-NEXT: [[@LINE+1]]:12 If
            elif i < 96:
                # CHECK-NEXT: [[@LINE+1]]:16 Pass
                pass
            else:
                # CHECK-NEXT: [[@LINE+1]]:16 AugAssign
                B[bx, i] += 1

# CHECK-NEXT: [[@LINE+2]]:0 Try
# CHECK-NEXT: [[@LINE+2]]:4 Expr
try:
    kernel(1, 2)
except ValueError:
    # CHECK-NEXT: [[@LINE+1]]:4 Raise
    raise
else:
    # CHECK-NEXT: [[@LINE+1]]:4 Expr
    print(f"{kernel!r:>{10}}")
finally:
    # CHECK-NEXT: [[@LINE+1]]:4 Pass
    pass
