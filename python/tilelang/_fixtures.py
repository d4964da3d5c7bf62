"""The pytest fixtures ``tilelang.testing.main()``'s own runner provides
when it runs a script without pytest: ``request``, ``monkeypatch``,
``tmp_path`` (and ``tmpdir``, a str), ``tmp_path_factory`` and ``capsys``.
Each behaves as pytest's does for the uses in TileLang's test files
(``request.param`` is the case's parametrize values); a test asking for
any other fixture fails naming it."""

import io
import os
import shutil
import sys
import tempfile


class _Node:
    def __init__(self, name, fn):
        self.name = name
        self.originalname = fn.__name__
        self.function = fn
        self.own_markers = list(getattr(fn, "pytestmark", []))

    def get_closest_marker(self, name):
        for m in self.own_markers:
            if getattr(m, "name", None) == name:
                return m
        return None

    def add_marker(self, marker):
        self.own_markers.append(getattr(marker, "mark", marker))


class Request:
    """pytest's ``request``: the case's ``param`` (for a parametrized
    fixture; here the case's values), ``node``, ``function``,
    ``getfixturevalue`` and ``applymarker`` (an ``xfail`` or ``skip`` mark
    applies to the running test)."""

    def __init__(self, case, params, fn):
        self._case = case
        self.param = params
        self.node = _Node(case.label, fn)
        self.function = fn
        self.fixturename = "request"
        self.config = None

    def getfixturevalue(self, name):
        return self._case.fixture(name)

    def applymarker(self, marker):
        mark = getattr(marker, "mark", marker)
        self.node.add_marker(mark)
        name = getattr(mark, "name", None)
        args = tuple(getattr(mark, "args", ()))
        kwargs = dict(getattr(mark, "kwargs", {}))
        if name == "xfail" and (args[0] if args else
                                kwargs.get("condition", True)):
            self._case.xfail = kwargs
        elif name == "skip" or (name == "skipif" and args and args[0]):
            import unittest
            raise unittest.SkipTest(kwargs.get("reason", "skip mark"))


class MonkeyPatch:
    """pytest's ``monkeypatch``: every change is undone after the test."""

    _MISSING = object()

    def __init__(self):
        self._undo = []

    def setattr(self, target, name, value=_MISSING, raising=True):
        if value is MonkeyPatch._MISSING:  # setattr("mod.attr", value)
            import importlib
            path, attr = target.rsplit(".", 1)
            value, name = name, attr
            parts = path.split(".")
            target = importlib.import_module(parts[0])
            for i, part in enumerate(parts[1:], 1):
                try:
                    target = getattr(target, part)
                except AttributeError:
                    target = importlib.import_module(".".join(parts[:i + 1]))
        old = getattr(target, name, MonkeyPatch._MISSING)
        if old is MonkeyPatch._MISSING and raising:
            raise AttributeError(f"{target!r} has no attribute {name!r}")
        # A class attribute read through the instance is restored as such.
        if isinstance(target, type):
            old = target.__dict__.get(name, MonkeyPatch._MISSING)
        self._undo.append(lambda: self._restore_attr(target, name, old))
        setattr(target, name, value)

    @staticmethod
    def _restore_attr(target, name, old):
        if old is MonkeyPatch._MISSING:
            if hasattr(target, name):
                delattr(target, name)
        else:
            setattr(target, name, old)

    def delattr(self, target, name, raising=True):
        if not hasattr(target, name):
            if raising:
                raise AttributeError(name)
            return
        old = getattr(target, name)
        self._undo.append(lambda: setattr(target, name, old))
        delattr(target, name)

    def setitem(self, mapping, key, value):
        old = mapping.get(key, MonkeyPatch._MISSING)
        self._undo.append(lambda: self._restore_item(mapping, key, old))
        mapping[key] = value

    def delitem(self, mapping, key, raising=True):
        if key not in mapping:
            if raising:
                raise KeyError(key)
            return
        old = mapping[key]
        self._undo.append(lambda: mapping.__setitem__(key, old))
        del mapping[key]

    @staticmethod
    def _restore_item(mapping, key, old):
        if old is MonkeyPatch._MISSING:
            mapping.pop(key, None)
        else:
            mapping[key] = old

    def setenv(self, name, value, prepend=None):
        value = str(value)
        if prepend and name in os.environ:
            value = value + prepend + os.environ[name]
        self.setitem(os.environ, name, value)

    def delenv(self, name, raising=True):
        self.delitem(os.environ, name, raising)

    def syspath_prepend(self, path):
        saved = list(sys.path)
        self._undo.append(lambda: sys.path.__setitem__(slice(None), saved))
        sys.path.insert(0, str(path))

    def chdir(self, path):
        old = os.getcwd()
        self._undo.append(lambda: os.chdir(old))
        os.chdir(path)

    def undo(self):
        for fn in reversed(self._undo):
            fn()
        self._undo.clear()


class CaptureResult(tuple):
    """``capsys.readouterr()``'s value: ``(out, err)`` with names."""

    def __new__(cls, out, err):
        return super().__new__(cls, (out, err))

    @property
    def out(self):
        return self[0]

    @property
    def err(self):
        return self[1]


class CapSys:
    """pytest's ``capsys``: ``sys.stdout`` / ``sys.stderr`` go to buffers
    for the test; ``readouterr()`` returns and clears what they hold."""

    def __init__(self):
        self._saved = (sys.stdout, sys.stderr)
        self._out, self._err = io.StringIO(), io.StringIO()
        sys.stdout, sys.stderr = self._out, self._err

    def readouterr(self):
        out, err = self._out.getvalue(), self._err.getvalue()
        for buf in (self._out, self._err):
            buf.seek(0)
            buf.truncate()
        return CaptureResult(out, err)

    def close(self):
        sys.stdout, sys.stderr = self._saved


class TmpPathFactory:
    def __init__(self, root):
        self._root = root

    def mktemp(self, basename, numbered=True):
        import pathlib
        return pathlib.Path(tempfile.mkdtemp(prefix=basename,
                                             dir=self._root))

    def getbasetemp(self):
        import pathlib
        return pathlib.Path(self._root)


class Case:
    """One run of a test: its label, parametrize values and the fixtures
    made for it (torn down by :meth:`close`)."""

    def __init__(self, label, fn, params):
        self.label = label
        self.fn = fn
        self.params = params
        self.xfail = None
        self._made = {}
        self._closers = []
        self._tmp = None

    def _tmp_root(self):
        if self._tmp is None:
            self._tmp = tempfile.mkdtemp(prefix="tilelang-test-")
            self._closers.append(lambda: shutil.rmtree(self._tmp, True))
        return self._tmp

    def fixture(self, name):
        if name in self.params:
            return self.params[name]
        if name in self._made:
            return self._made[name]
        import pathlib
        if name == "request":
            value = Request(self, self.params, self.fn)
        elif name == "monkeypatch":
            value = MonkeyPatch()
            self._closers.append(value.undo)
        elif name in ("tmp_path", "tmpdir"):
            value = pathlib.Path(tempfile.mkdtemp(dir=self._tmp_root()))
            if name == "tmpdir":
                value = str(value)
        elif name == "tmp_path_factory":
            value = TmpPathFactory(self._tmp_root())
        elif name == "capsys":
            value = CapSys()
            self._closers.append(value.close)
        else:
            raise TypeError(
                f"{self.fn.__name__} needs the fixture '{name}', which "
                "tilelang.testing's runner does not provide without pytest "
                "(install pytest to run it)")
        self._made[name] = value
        return value

    def close(self):
        for fn in reversed(self._closers):
            fn()
        self._closers.clear()
