# RUN: tlc-build --verify-diagnostics %s
# The evaluator's time budget (EvalOptions::timeBudgetSeconds, 10 CPU s for
# the file): a loop whose every step does much work (summing a long list,
# which allocates nothing, so the memory budget cannot fire first) ends
# with a diagnostic long before the step budget (4M steps) would.
import tilelang
import tilelang.language as T

x = list(range(50000))
# expected-error@+1 {{evaluation time budget exhausted (10.0 s); the rest of the file is not analysed}}
while True:
    y = sum(x)
