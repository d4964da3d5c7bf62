# RUN: tlc-build --eval-memory-budget=128 --eval-time-budget=600 --verify-diagnostics %s
# The evaluator's memory budget (EvalOptions::memoryBudgetBytes, 1 GiB of
# Python objects for the file by default, 128 MiB here so that it fills in
# well under the time budget on a loaded or sanitized build): a loop that
# keeps every list it makes is stopped with a diagnostic instead of running
# the machine out of memory. Doubling a list is refused once it would pass
# 2^20 elements.
import tilelang
import tilelang.language as T

y = [0] * 60000
for i in range(30):
    # expected-warning@+1 {{MemoryError: sequence too large at trace time (raised while running module-level code)}}
    y = y + y

x = []
# expected-error@+1 {{evaluation memory budget exhausted (128 MiB of Python objects); the rest of the file is not analysed}}
while True:
    x.append([0] * 1000000)
