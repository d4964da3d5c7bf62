"""``tvm.compile(mod, target=...)`` (and the older ``tvm.build``) over an
``IRModule`` of the package's prim_funcs, as TileLang's tests call it:
``tvm.compile(tvm.IRModule({"main": func}), target="cuda")``, then
``ex.mod.imports[0].inspect_source()`` (TVM-FFI) or
``ex.mod.imported_modules[0].get_source()`` (older TVM) for the device
source, ``ex["main"](a, b)`` or ``ex(a, b)`` to run it.

tlc has no TVM IR: each prim_func is built as ``tilelang.compile`` builds
it (the instance its source and bindings describe) and the executable
gathers the kernels by their names in the module. Its runtime module's
device source is the kernels' generated sources (CUDA, HIP or the CPU
target's C++), its own source the host sides
(:meth:`JITKernel.get_host_source`), one after another in the module's
order."""

from ._ir_module import IRModule
from .language._objects import PrimFunc


class _DeviceModule:
    """The device module of :attr:`RuntimeModule.imports`: the kernels'
    generated sources."""

    def __init__(self, kernels, type_key):
        self._kernels = kernels
        self.type_key = type_key
        self.imported_modules = []
        self.imports = []

    def get_source(self, fmt=""):
        return "\n".join(k.get_kernel_source() for k in self._kernels)

    inspect_source = get_source

    def __repr__(self):
        return f"Module({self.type_key})"


class RuntimeModule:
    """``Executable.mod``: TVM's runtime module of the built functions
    (call them by name; ``imports`` / ``imported_modules`` hold the device
    module)."""

    def __init__(self, executable):
        self._executable = executable
        kernels = list(executable.kernels.values())
        target = kernels[0].target if kernels else "cpu"
        self.type_key = "library"
        device = _DeviceModule(kernels, "c" if target == "cpu"
                               else target.split(":")[0])
        self.imported_modules = [device]
        self.imports = self.imported_modules

    def get_source(self, fmt=""):
        return "\n".join(k.get_host_source()
                         for k in self._executable.kernels.values())

    inspect_source = get_source

    def __getitem__(self, name):
        return self._executable[name]

    def get_function(self, name, query_imports=False):
        return self._executable.get_function(name)

    def __call__(self, *args, **kwargs):
        return self._executable(*args, **kwargs)

    def __repr__(self):
        return f"Module(library: {', '.join(self._executable.kernels)})"


class Executable:
    """What ``tvm.compile`` returns: the built kernels by their names in
    the module (each a :class:`~tilelang.JITKernel`)."""

    def __init__(self, kernels):
        self.kernels = dict(kernels)
        self.mod = RuntimeModule(self)

    def __getitem__(self, name):
        key = str(getattr(name, "name_hint", name))
        if key not in self.kernels:
            raise AttributeError(
                f"Module has no function '{key}' (it has "
                f"{', '.join(self.kernels) or 'none'})")
        return self.kernels[key]

    def get_function(self, name, query_imports=False):
        return self[name]

    def __contains__(self, name):
        return str(getattr(name, "name_hint", name)) in self.kernels

    def __call__(self, *args, **kwargs):
        """Runs the entry function: ``main``, else the module's only
        function."""
        if "main" in self.kernels:
            return self.kernels["main"](*args, **kwargs)
        if len(self.kernels) == 1:
            return next(iter(self.kernels.values()))(*args, **kwargs)
        raise TypeError(
            "this module has no 'main' function and several others ("
            f"{', '.join(self.kernels)}): call one by name, ex[NAME](...)")

    def jit(self, *args, **kwargs):
        return self.mod

    def __repr__(self):
        return f"<Executable {', '.join(self.kernels)}>"


def module_prim_funcs(mod, what="tvm.compile"):
    """``[(name, prim_func)]`` of an IRModule (or of a single prim_func,
    named ``main`` as ``IRModule.from_expr`` names it); a TypeError for
    anything else, or a module holding other functions."""
    if isinstance(mod, PrimFunc):
        return [("main", mod)]
    if not isinstance(mod, IRModule):
        raise TypeError(f"{what} expects a tvm.IRModule of @T.prim_func "
                        f"functions or a prim_func, got {type(mod).__name__}")
    if not len(mod):
        raise ValueError(f"{what}: the IRModule has no functions")
    found = []
    for name, func in mod.items():
        if not isinstance(func, PrimFunc):
            raise TypeError(
                f"{what}: function '{name}' of the IRModule is a "
                f"{type(func).__name__}, not a @T.prim_func (tlc builds "
                "prim_funcs from their Python source; it has no Relax or "
                "other TVM IR)")
        found.append((name, func))
    return found


def compile(mod, target=None, relax_pipeline=None, tir_pipeline=None,
            **kwargs):  # noqa: A001
    """``tvm.compile(mod, target=...)``: each prim_func of the module built
    as ``tilelang.compile(func, target=target)`` builds it; an
    :class:`Executable` of them. The pipelines are TVM's (tlc lowers every
    kernel with its own)."""
    from ._compile import compile as build
    return Executable({name: build(func, target=target)
                       for name, func in module_prim_funcs(mod)})


def build(mod, target=None, target_host=None, **kwargs):
    """``tvm.build(mod, target=...)`` (TVM before ``tvm.compile``): the
    runtime module of :func:`compile`'s executable."""
    return compile(mod, target=target).mod
