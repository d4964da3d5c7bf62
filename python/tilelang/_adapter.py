"""``kernel.adapter``: what TileLang's execution backend object exposes of
a compiled kernel, for scripts that inspect it.

* ``prim_func``: the prim_func the kernel was built from; with an
  ``out_idx`` given to ``tilelang.compile`` it is a copy whose
  ``tilelang_out_idx`` attribute holds it (the user's prim_func is not
  changed);
* ``dynamic_symbolic_map``: ``None``, as TileLang's TVM-FFI backend: the
  package binds every symbolic size from the arguments at each call and
  keeps no separate map from symbols to argument dimensions;
* ``executable``: None until the kernel is loaded for a device (its first
  call, or ``prepare_for_execution()``, which strict compilation runs when
  it compiles), then the loaded kernel's launcher;
* ``get_exportable_executable().jit()``: the kernel's runtime module, whose
  ``get_function(name)`` is the kernel's entry point under its global
  symbol (taking every parameter, outputs included, as TileLang's packed
  function does); any other name raises ``AttributeError``, as a runtime
  module without that function.
"""


class RuntimeModule:
    """A loaded kernel module with one function, the kernel's entry."""

    def __init__(self, kernel, symbol):
        self._kernel = kernel
        self._symbol = symbol

    def get_function(self, name, query_imports=False):
        if name != self._symbol:
            raise AttributeError(
                f"the module of kernel '{self._symbol}' has no function "
                f"'{name}' (its only function is '{self._symbol}')")
        kernel = self._kernel
        if not kernel._eager:
            kernel = kernel.with_out_idx(None)
        return kernel

    def __getitem__(self, name):
        return self.get_function(name)

    def __repr__(self):
        return f"<runtime module {self._symbol}>"


class Executable:
    """``adapter.get_exportable_executable()``: ``jit()`` loads it."""

    def __init__(self, kernel, symbol):
        self._module = RuntimeModule(kernel, symbol)

    def jit(self):
        return self._module


class Adapter:
    def __init__(self, kernel):
        self._kernel = kernel
        self.prim_func = getattr(kernel, "prim_func", None)
        self.dynamic_symbolic_map = None

    @property
    def global_symbol(self):
        func = self.prim_func
        if func is not None:
            return func.attrs.get("global_symbol", func.__name__)
        return self._kernel.kernel_name

    @property
    def executable(self):
        launchers = getattr(self._kernel, "_launchers", None) or {}
        return next(iter(launchers.values()), None)

    def get_exportable_executable(self):
        return Executable(self._kernel, self.global_symbol)

    def get_kernel_source(self, kernel_only=True):
        return self._kernel.get_kernel_source(kernel_only)

    def __repr__(self):
        return f"<adapter of {self._kernel!r}>"
