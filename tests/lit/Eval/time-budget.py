# RUN: tlc-build --verify-diagnostics %s
# The evaluator's time budget (EvalOptions::timeBudgetSeconds, 10 s for
# the file): a loop whose every step does much work (sorting a long list)
# ends with a diagnostic long before the step budget (4M steps) would.
import tilelang
import tilelang.language as T

x = list(range(4000))
# expected-error@+1 {{evaluation time budget exhausted (10.0 s); the rest of the file is not analysed}}
while True:
    y = sorted(x)
