"""Counts the kernel instances CPython creates when it runs a TileLang file
and compares them with the instances tlc-build traced.

usage: count_instances.py FILE HINTS_JSON

FILE runs under CPython with a stand-in `tilelang` package whose
`@tilelang.jit` records each call's cache key, as TileLang's JIT cache
keys a call: the positional arguments and the sorted keyword arguments
(a second call with the same key reuses the kernel). Factory bodies run,
so the prim_func they return is decorated as in TileLang; kernel bodies
do not. HINTS_JSON is `tlc-build --emit=hints --format=json FILE`: every
hint names its instance. Prints both counts and exits 1 when they differ.
"""
import json
import sys
import types


class _Anything:
    """What every name of `tilelang.language` is: callable, subscriptable,
    with any attribute; the kernel bodies that would use it never run."""

    def __init__(self, name):
        self._name = name

    def __call__(self, *args, **kwargs):
        if len(args) == 1 and callable(args[0]) and not kwargs:
            return args[0]  # a decorator: @T.prim_func, @T.macro
        return _Anything(self._name + "()")

    def __getattr__(self, name):
        return _Anything(self._name + "." + name)

    def __getitem__(self, item):
        return _Anything(self._name + "[]")

    def __repr__(self):
        return self._name


calls = {}


def _jit(*deco_args, **deco_kwargs):
    def wrap(fn):
        def call(*args, **kwargs):
            key = (fn.__name__, args, tuple(sorted(kwargs.items())))
            calls[repr(key)] = True
            return fn(*args, **kwargs)
        return call
    if len(deco_args) == 1 and callable(deco_args[0]) and not deco_kwargs:
        return wrap(deco_args[0])
    return wrap


language = types.ModuleType("tilelang.language")
language.__getattr__ = lambda name: _Anything("T." + name)
tilelang = types.ModuleType("tilelang")
tilelang.jit = _jit
tilelang.language = language
sys.modules["tilelang"] = tilelang
sys.modules["tilelang.language"] = language

path, hints = sys.argv[1], sys.argv[2]
with open(path) as f:
    code = compile(f.read(), path, "exec")
exec(code, {"__name__": "__main__", "__file__": path})
with open(hints) as f:
    traced = {h["instance"] for h in json.load(f)}
print(f"CPython: {len(calls)} distinct calls; tlc-build: {len(traced)} "
      "instances")
sys.exit(0 if len(calls) == len(traced) else 1)
