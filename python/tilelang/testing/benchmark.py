"""``tilelang.testing.benchmark``: the recorder behind TileLang's
``bench_example_*.py`` and ``regression_example_*.py`` scripts.

``process_func(fn, *args, name=None, **kwargs)`` runs a benchmark function
(one returning a latency in milliseconds) and records it; the script's
``tilelang.testing.bench()`` / ``regression()`` runs its ``bench_*`` /
``regression_*`` functions and prints the records as a table. TileLang runs
each function in a spawned process, only warns about one that fails and
draws a chart with matplotlib; here they run in the script's process (each
builds and times its own kernels), a failure is printed with its traceback
and makes the script exit with status 1, and the table is text.
"""

import inspect
import sys
import traceback

__all__ = ["process_func", "bench", "records"]

records = []  # (name, latency in ms or None, error text or None)


def _record(func, args, kwargs, name):
    label = name or getattr(func, "__module__", None) or repr(func)
    try:
        latency = func(*args, **kwargs)
    except Exception as e:
        traceback.print_exc()
        records.append((label, None, f"{type(e).__name__}: {e}"))
        return None
    records.append((label, latency, None))
    print(label, latency, flush=True)
    return latency


def process_func(func, *args, name=None, **kwargs):
    """Runs ``func(*args, **kwargs)`` and records the latency it returns
    under ``name`` (default: the function's module)."""
    return _record(func, args, kwargs, name)


def _drive(caller, prefix):
    """Calls the ``prefix*`` functions of the module globals ``caller`` in
    definition order, prints the records and exits 1 when one failed."""
    for fname, fn in list(caller.items()):
        if fname.startswith(prefix) and inspect.isfunction(fn) and \
                fn.__module__ == caller.get("__name__"):
            try:
                fn()
            except Exception as e:  # the function itself, not a record
                traceback.print_exc()
                records.append((fname, None, f"{type(e).__name__}: {e}"))
    width = max([len(str(n)) for n, _, _ in records] + [9])
    print(f"{'function':<{width}}  latency (ms)")
    failed = 0
    for label, latency, err in records:
        if err is not None:
            failed += 1
            print(f"{label:<{width}}  failed: {err}")
        else:
            text = f"{latency:.4f}" if isinstance(latency, (int, float)) \
                else str(latency)
            print(f"{label:<{width}}  {text}")
    if not records:
        print("no records: the script defines no "
              f"{prefix}* function that calls process_func")
    if failed:
        sys.exit(1)


def bench():
    """Runs the calling script's ``bench_*`` functions (see
    :func:`tilelang.testing.bench`)."""
    _drive(inspect.stack()[1].frame.f_globals, "bench_")
