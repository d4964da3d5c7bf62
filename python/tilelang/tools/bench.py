"""``tilelang.tools.bench``: the driver of TileLang's ``bench_*.py`` files.

``process_func(fn, *args, **kwargs)`` runs ``fn`` (a benchmark function
returning a latency in milliseconds, or None) and records the result under
its name; ``main()`` calls every ``bench_*`` function of the calling module
and prints a table of the records.
"""

import inspect
import sys
import traceback

records = []


def process_func(func, *args, repeat=1, **kwargs):
    """Runs ``func(*args, **kwargs)`` ``repeat`` times and records the
    smallest latency it returned (or the error it raised)."""
    name = getattr(func, "__module__", "") + "." + \
        getattr(func, "__name__", repr(func))
    best = None
    try:
        for _ in range(max(1, repeat)):
            value = func(*args, **kwargs)
            if isinstance(value, (int, float)):
                best = value if best is None else min(best, value)
        records.append((name, best, None))
    except Exception as e:  # a benchmark that fails is reported, not fatal
        traceback.print_exc()
        records.append((name, None, f"{type(e).__name__}: {e}"))
    return best


def main():
    caller = inspect.stack()[1].frame.f_globals
    for name, fn in list(caller.items()):
        if name.startswith("bench_") and inspect.isfunction(fn):
            fn()
    width = max([len(n) for n, _, _ in records] + [8])
    print(f"{'benchmark':<{width}}  latency (ms)")
    failed = 0
    for name, latency, err in records:
        if err is not None:
            failed += 1
            print(f"{name:<{width}}  failed: {err}")
        else:
            text = "-" if latency is None else f"{latency:.4f}"
            print(f"{name:<{width}}  {text}")
    if failed:
        sys.exit(1)
