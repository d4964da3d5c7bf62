"""``tvm.target.Target`` for scripts that build one to pass as ``target=``
or enter as a context (``with tvm.target.Target("cuda"): tilelang.lower(
func)``). It records the kind and options; :func:`tilelang.jit
.resolve_target` maps it to tlc-build's ``--target``, and a target entered
with ``with`` is the default of builds that name none."""

import threading

_current = threading.local()


class _Kind:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name


class Target:
    """A target: ``Target("cuda")``, ``Target("cuda -arch=sm_80")``,
    ``Target({"kind": "cuda", "arch": "sm_90"})``, ``Target("c")``,
    optionally ``host=``."""

    def __init__(self, target, host=None):
        if isinstance(target, Target):
            self.kind, self.arch, self.attrs = target.kind, target.arch, \
                dict(target.attrs)
            self.host = host if host is not None else target.host
            return
        if isinstance(target, dict):
            attrs = dict(target)
            kind = str(attrs.pop("kind", "cuda"))
        elif isinstance(target, str) and target.strip():
            parts = target.split()
            kind, attrs = parts[0], {}
            for opt in parts[1:]:
                key, _, value = opt.lstrip("-").partition("=")
                attrs[key] = value if value else True
        else:
            raise ValueError(f"cannot make a target of {target!r}")
        self.kind = _Kind(kind)
        self.arch = attrs.get("arch") or attrs.get("mcpu")
        self.attrs = attrs
        self.host = Target(host) if isinstance(host, (str, dict)) else host

    def spec(self):
        """The TileLang target text (``cuda -arch=sm_90``)."""
        return self.kind.name + (f" -arch={self.arch}" if self.arch else "")

    def __str__(self):
        return self.spec()

    def __repr__(self):
        return f"Target({self.spec()!r})"

    def __enter__(self):
        stack = getattr(_current, "stack", None)
        if stack is None:
            stack = _current.stack = []
        stack.append(self)
        return self

    def __exit__(self, *exc):
        _current.stack.pop()
        return False

    @staticmethod
    def current(allow_none=True):
        """The innermost target entered with ``with`` (None outside)."""
        stack = getattr(_current, "stack", None)
        if stack:
            return stack[-1]
        if not allow_none:
            raise ValueError("no target is entered")
        return None


class PassContext:
    """``tvm.transform.PassContext``: scripts enter one around their
    builds (``with tvm.transform.PassContext(config={...}),
    tvm.target.Target("cuda"): tilelang.lower(func)``). Its ``config`` is
    the pass configs of the builds made inside it (the kernel's own
    ``pass_configs=`` win, as TileLang's compile enters a context of its
    own); ``opt_level`` and the pass lists have no tlc counterpart and are
    kept only to be read back."""

    def __init__(self, opt_level=2, required_pass=None, disabled_pass=None,
                 instruments=None, config=None, trace=None,
                 trace_stack=None, make_traceable=None, num_evals=0,
                 tuning_api_database=None):
        self.opt_level = opt_level
        self.required_pass = list(required_pass or [])
        self.disabled_pass = list(disabled_pass or [])
        self.instruments = list(instruments or [])
        self.config = dict(config or {})

    def __enter__(self):
        stack = getattr(_current, "passes", None)
        if stack is None:
            stack = _current.passes = []
        stack.append(self)
        return self

    def __exit__(self, *exc):
        _current.passes.pop()
        return False

    @staticmethod
    def current():
        """The innermost context entered (a default one outside)."""
        stack = getattr(_current, "passes", None)
        return stack[-1] if stack else PassContext()


def current_pass_configs():
    """The pass configs of the contexts entered in this thread, inner ones
    winning."""
    merged = {}
    for context in getattr(_current, "passes", None) or ():
        merged.update(context.config)
    return merged
