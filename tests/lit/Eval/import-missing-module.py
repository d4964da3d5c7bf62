# An import of a module that does not exist raises ModuleNotFoundError (an
# ImportError) inside the program, so `try: import x / except ImportError:`
# takes the handler, as in an environment without that package; modules of
# the standard library and of TileLang's environment (torch, numpy, tvm
# ...) always import. tlc never raised: the handler was never analysed and
# the fallback's values never set. A module tlc does not know is assumed
# missing only under such a handler; unguarded, it is assumed installed
# (an opaque module, no diagnostic: Inputs/import-unguarded.py). CPython
# runs this file first; its asserts are the oracle.
# RUN: %python %s
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile %s | FileCheck %s
# RUN: tlc-build --check %S/Inputs/import-unguarded.py 2>&1 | count 0

try:
    import a_module_nobody_has
    block = 256
except ImportError:
    a_module_nobody_has = None
    block = 64
assert block == 64 and a_module_nobody_has is None

try:
    from another_missing.sub import thing
    message = "imported"
except ModuleNotFoundError as e:
    message = str(e)
assert message == "No module named 'another_missing'", message

try:
    import os.path
    import json
    from collections import OrderedDict
    stdlib = "imported"
except ImportError:
    stdlib = "handler"
assert stdlib == "imported"


def load():
    import yet_another_missing_module
    return 1


try:
    loaded = load()
except Exception:
    loaded = 2
assert loaded == 2

try:
    import tilelang.language as T
except ImportError:
    T = None

if T is not None:
    # CHECK-LABEL: tile.func @sizes
    # CHECK: arith.constant 64 : i32
    # CHECK: arith.constant 2 : i32
    @T.prim_func
    def sizes(B: T.Tensor((2,), T.int32)):
        with T.Kernel(1, threads=1):
            B[0] = block
            B[1] = loaded
