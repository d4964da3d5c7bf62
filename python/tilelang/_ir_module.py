"""``tvm.IRModule`` as scripts use it around the package's prim_funcs: a
named collection of them (``tvm.IRModule({"main": func})``,
``IRModule.from_expr(func)``, ``mod["main"]``) that TileLang passes are
applied to before ``tilelang.compile(mod["main"])``. tlc has no TVM IR:
the functions are the package's prim_funcs, which tlc builds from their
source."""


class IRModule:
    def __init__(self, functions=None, *args, **kwargs):
        self.functions = {str(getattr(k, "name_hint", k)): v
                          for k, v in dict(functions or {}).items()}

    @staticmethod
    def from_expr(expr, *args, **kwargs):
        return IRModule({"main": expr})

    def __getitem__(self, name):
        key = str(getattr(name, "name_hint", name))
        if key not in self.functions:
            raise KeyError(f"IRModule has no function '{key}' (it has "
                           f"{', '.join(self.functions) or 'none'})")
        return self.functions[key]

    def __setitem__(self, name, func):
        self.functions[str(getattr(name, "name_hint", name))] = func

    def __contains__(self, name):
        return str(getattr(name, "name_hint", name)) in self.functions

    def __iter__(self):
        return iter(self.functions.values())

    def __len__(self):
        return len(self.functions)

    def items(self):
        return self.functions.items()

    def keys(self):
        return self.functions.keys()

    def get_global_vars(self):
        return list(self.functions)

    def copy(self):
        return IRModule(self.functions)

    def __repr__(self):
        return f"IRModule({{{', '.join(map(repr, self.functions))}}})"
