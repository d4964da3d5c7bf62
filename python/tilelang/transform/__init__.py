"""``tilelang.transform``: pass configuration keys, the decorators
scripts put on kernel factories and the names of TileLang's passes that
scripts call. tlc runs its own pipeline on every kernel it builds, so a
pass is either the identity on the package's prim_func (where tlc does
the same to every build: ``simplify``) or refuses to run with a
NotImplementedError naming what tlc does instead (a pass that rewrites
TVM IR the package does not have: ``LowerKernelLaunchTo*``)."""


class _KeyMeta(type):
    def __getattr__(cls, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return PassConfigKey(name)


class PassConfigKey(str, metaclass=_KeyMeta):
    """``PassConfigKey.TL_DISABLE_TMA_LOWER`` is ``"tl.disable_tma_lower"``
    (any ``TL_*`` name maps to ``tl.<lower case>``). tlc reads the pass
    configs it understands from the source; Python passes them into the
    build key only."""

    def __new__(cls, name):
        text = name if "." in name else \
            "tl." + name[3:].lower() if name.startswith("TL_") else name
        return super().__new__(cls, text)

    @property
    def value(self):
        return str(self)


class PassContext:
    def __init__(self, *args, **kwargs):
        self.config = kwargs.get("config", {})

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


from .simplify import apply_simplify, simplify_prim_func  # noqa: E402,F401


class _TIRPass:
    """A TileLang pass over TVM IR modules that tlc does not run on Python
    objects: creating it works (scripts build pass lists at module level),
    applying it raises NotImplementedError saying where tlc does it."""

    def __init__(self, name, instead):
        self.name = name
        self.instead = instead

    def __call__(self, mod, *args, **kwargs):
        raise NotImplementedError(
            f"tilelang.transform.{self.name}: tlc has no TVM IR to rewrite "
            f"in Python; {self.instead}")

    def __repr__(self):
        return f"tilelang.transform.{self.name}()"


class _SimplifyPass:
    """``tilelang.transform.Simplify()``: on an ``IRModule``, a new module
    of the same prim_funcs; on a prim_func, the prim_func. tlc simplifies
    every kernel when it builds it, so what is built from the result is
    what is built from the argument."""

    def __call__(self, mod, *args, **kwargs):
        from .._ir_module import IRModule
        from ..language._objects import PrimFunc
        if isinstance(mod, IRModule):
            return mod.copy()
        if isinstance(mod, PrimFunc):
            return mod
        raise TypeError("tilelang.transform.Simplify() applies to an "
                        f"IRModule or a prim_func, not {type(mod).__name__}")

    def __repr__(self):
        return "tilelang.transform.Simplify()"


def Simplify(*args, **kwargs):  # noqa: N802 - TileLang's name
    return _SimplifyPass()


def LowerKernelLaunchToThreadBinding():  # noqa: N802 - TileLang's name
    """TileLang's pass binding ``T.Kernel``'s launch to blockIdx /
    threadIdx (GPU targets)."""
    return _TIRPass("LowerKernelLaunchToThreadBinding",
                    "tlc binds a T.Kernel's blocks and threads itself when "
                    "it builds for a GPU target (get_kernel_source() shows "
                    "the result)")


def LowerKernelLaunchToSerial():  # noqa: N802 - TileLang's name
    """TileLang's pass turning ``T.Kernel``'s grid into serial loops
    (serial back ends such as C)."""
    return _TIRPass("LowerKernelLaunchToSerial",
                    "tlc's CPU target runs a T.Kernel's grid as loops "
                    "itself when it builds for target='cpu' "
                    "(get_kernel_source() shows the result)")


def __getattr__(name):
    """Any other pass TileLang has (``LetInline``, ``VerifyParallelLoop``,
    ``LegalizeNegativeIndex``, ...): made like TileLang's (``Pass()``),
    raising NotImplementedError when applied to a module."""
    if not name[:1].isupper() or not name.isidentifier():
        raise AttributeError(f"module 'tilelang.transform' has no attribute "
                             f"{name!r}")

    def make(*args, **kwargs):
        return _TIRPass(name, "tlc runs its own passes on a kernel when it "
                        "builds it (tilelang.compile); their result is "
                        "what get_kernel_source() shows")
    make.__name__ = make.__qualname__ = name
    return make
