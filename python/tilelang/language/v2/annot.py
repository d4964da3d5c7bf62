"""``tilelang.language.v2.annot``: jit2's argument annotations as Python
objects. ``T.Tensor[[M, int], T.float32]`` (a :class:`TensorType`) and
``T.dyn`` / ``T.dyn[int]`` (a :class:`DynType`) are :class:`Annot`\\ s:

* ``annot.promote()`` is the fixed parameter type when the annotation
  alone determines it (every extent a number), else None;
* ``annot.create_prim_func_arg(name, value, vt)`` matches an argument (a
  torch tensor, a ``T.Tensor``, an integer) against the annotation, raising
  ``TypeError`` / ``ValueError`` when it does not fit, and returns the
  kernel parameter it becomes; ``vt`` (:class:`ArgVarTable`) holds the
  symbols the arguments bind, so one symbol gets one size.

tlc reads the annotations of a kernel from its source when it builds it;
these objects are for scripts that match arguments in Python.
"""

import abc

from .._objects import DynType, Symbol, TensorType

__all__ = ["Annot", "ArgVarTable", "DynType", "TensorType"]


class Annot(abc.ABC):
    """What every jit2 argument annotation provides: ``promote()`` and
    ``create_prim_func_arg(name, value, vt)``."""

    def promote(self):
        return None

    @abc.abstractmethod
    def create_prim_func_arg(self, name, value, vt):
        """The kernel parameter ``name`` for argument ``value``."""


Annot.register(TensorType)
Annot.register(DynType)


class ArgVarTable:
    """The symbols of one prim_func's arguments: one :class:`Symbol` per
    name, and the size each symbol took from an argument's shape."""

    def __init__(self):
        self.var_tab = {}
        self.sizes = {}
        self.tmp_name_idx = 0

    def get_or_create_var(self, name, dtype="int32"):
        """The symbol called ``name`` (a fresh ``varg_N`` when empty)."""
        if not name:
            name = self.create_tmp_name()
        if name not in self.var_tab:
            self.var_tab[name] = Symbol(name, str(dtype))
        return self.var_tab[name]

    def create_tmp_name(self):
        name = f"varg_{self.tmp_name_idx}"
        self.tmp_name_idx += 1
        return name

    def bind(self, name, size, arg="", axis=0):
        """Records that symbol ``name`` is ``size`` (extent ``axis`` of
        argument ``arg``); a different size for the same symbol is a
        ``ValueError``."""
        self.get_or_create_var(name)
        if name in self.sizes and self.sizes[name] != size:
            raise ValueError(f"argument '{arg}': extent {axis} is {size}, but "
                             f"'{name}' is {self.sizes[name]} from an "
                             "earlier extent")
        self.sizes[name] = size
        return self.var_tab[name]
