# Reading a T.* name TileLang does not have raises Python's AttributeError
# at the attribute, not only when it is called directly (unknown-t-call.py):
# `f = T.atomic_ad; f(...)` is an error of the program at `T.atomic_ad`.
# It used to be a warning while the call through `f` was dropped from the
# kernel (--check passed). hasattr/getattr with a default and
# `except AttributeError` see the exception, as in Python, and the names
# TileLang has (functions, dtypes, namespaces) still read.
# RUN: not tlc-build --check --no-source-lines %s 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
# RUN: not tlc-build --check --format=json %s 2>&1 | FileCheck %s --check-prefix=JSON
# RUN: not tlc-build --target=cpu --emit=cpp --no-source-lines %s 2>&1 | FileCheck %s
# RUN: tlc-build --target=cpu --emit=cpp --kernel=known --no-source-lines %s 2>&1 | FileCheck %s --check-prefix=KNOWN
# JSON: "category": "AttributeError"
# KNOWN-NOT: error:
# KNOWN: int tlc_known(
import tilelang
import tilelang.language as T

HAS_NOPE = hasattr(T, "no_such_thing")
NOPE = getattr(T, "no_such_thing", None)
try:
    maybe = T.no_such_thing
except AttributeError:
    maybe = T.exp2
POLICY = T.GemmWarpPolicy.Square
assert not HAS_NOPE and NOPE is None and hasattr(T, "atomic_add")


@tilelang.jit
def through_a_name():
    @T.prim_func
    def main(x: T.Tensor((32,), "float32"), y: T.Tensor((32,), "float32")):
        with T.Kernel(1, threads=32):
            tx = T.get_thread_binding()
            # CHECK: unknown-t-attribute.py:[[@LINE+1]]:17: error: AttributeError: module 'tilelang.language' has no attribute 'atomic_ad'; did you mean 'T.atomic_add'?
            f = T.atomic_ad
            f(y[tx], x[tx])

    return main


@tilelang.jit
def known():
    @T.prim_func
    def main(x: T.Tensor((32,), "float32"), y: T.Tensor((32,), "float32")):
        with T.Kernel(1, threads=32):
            tx = T.get_thread_binding()
            g = T.atomic_add
            half = T.float16
            g(y[tx], maybe(T.cast(half(x[tx]), "float32")))

    return main


through_a_name()
known()
