# RUN: not tlc-build --check --no-source-lines %s 2>&1 | FileCheck %s --check-prefix=TEXT
# RUN: not tlc-build --check --format=json %s | FileCheck %s --check-prefix=JSON
# RUN: not tlc-build --check --format=sarif %s | FileCheck %s --check-prefix=SARIF
# RUN: not tlc-build --check --format=yaml %s 2>&1 | FileCheck %s --check-prefix=USAGE
# RUN: not tlc-build --check --target=cuda:sm_10 %s 2>&1 | FileCheck %s --check-prefix=USAGE-TARGET
# RUN: not tlc-build --check %s.missing 2>&1 | FileCheck %s --check-prefix=MISSING
# Diagnostics formats and exit codes (1: errors in the program, 2: usage).
import tilelang
import tilelang.language as T


@tilelang.jit
def k(N=64):
    A: T.Tensor((N,), T.float32)
    with T.Kernel(1, threads=1024 + 1) as bx:
        T.fill(A, undefined_value)

# TEXT: formats.py:[[@LINE-3]]:10: error: thread count 1025 exceeds the maximum of 1024 threads per block
# TEXT: formats.py:[[@LINE-3]]:19: error: undefined name 'undefined_value'

# JSON: "file": "{{.*}}formats.py"
# JSON: "line": 15
# JSON: "message": "thread count 1025 exceeds the maximum of 1024 threads per block"
# JSON: "severity": "error"

# SARIF: "level": "error"
# SARIF: "startColumn": 10
# SARIF: "startLine": 15
# SARIF: "text": "thread count 1025
# SARIF: "version": "2.1.0"

# USAGE: unknown --format 'yaml'
# USAGE-TARGET: unknown --target 'cuda:sm_10'
# MISSING: error: cannot read file
