# RUN: tlc-build --verify-diagnostics %s
# Under ASan the 1 GiB takes longer to fill than the 10 s time budget
# allows, so the time budget fires first (time-budget.py tests that one).
# UNSUPPORTED: asan
# The evaluator's memory budget (EvalOptions::memoryBudgetBytes, 1 GiB of
# Python objects for the file): a loop that keeps every list it makes is
# stopped with a diagnostic instead of running the machine out of memory.
# Doubling a list is refused once it would pass 2^20 elements.
import tilelang
import tilelang.language as T

y = [0] * 60000
for i in range(30):
    # expected-warning@+1 {{MemoryError: sequence too large at trace time (raised while running module-level code)}}
    y = y + y

x = []
# expected-error@+1 {{evaluation memory budget exhausted (1024 MiB of Python objects); the rest of the file is not analysed}}
while True:
    x.append([0] * 1000000)
