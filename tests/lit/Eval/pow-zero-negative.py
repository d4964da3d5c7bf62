# RUN: tlc-build --verify-diagnostics %s
# `0 ** -n` raises ZeroDivisionError in CPython (for ints of either size);
# tlc used to answer inf.
import tilelang.language as T

# expected-warning@+1 {{ZeroDivisionError: 0.0 cannot be raised to a negative power (raised while running module-level code)}}
a = 0 ** -1
# expected-warning@+1 {{ZeroDivisionError: 0.0 cannot be raised to a negative power (raised while running module-level code)}}
b = 0 ** -(1 << 70)
c = 0.5 ** -1
