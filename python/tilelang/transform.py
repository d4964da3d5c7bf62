"""``tilelang.transform``: pass configuration keys and the decorators
scripts put on kernel factories."""


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


def simplify_prim_func(func):
    """``@simplify_prim_func`` on a factory: tlc simplifies every kernel it
    builds, so the factory is returned as it is."""
    return func
