"""``tilelang.testing.main()`` gives tests the pytest fixtures public test
files ask for (test_tilelang_issue_2714.py's ``request.applymarker``,
test_tilelang_issue_1810.py's ``monkeypatch``, ``tmp_path``, ``capsys``).

The package's own runner (no pytest, or ``TLC_TESTING_RUNNER=builtin``)
makes them itself; where pytest is installed ``main()`` runs the script
through pytest, and the same script gives the same outcomes there. The
script models pytest's marks by their shape, so it needs no pytest.
"""

import importlib.util
import os
import subprocess
import sys
import tempfile
import textwrap

SCRIPT = textwrap.dedent('''
    import os
    import sys

    import tilelang.testing

    class Mark:  # pytest's Mark: a name, args and kwargs
        def __init__(self, name, *args, **kwargs):
            self.name, self.args, self.kwargs = name, args, kwargs

    try:
        import pytest
        XFAIL = pytest.mark.xfail
        parametrize = pytest.mark.parametrize
    except ImportError:
        def XFAIL(**kw):
            return Mark("xfail", **kw)

        def parametrize(names, values):
            def deco(fn):
                fn.pytestmark = getattr(fn, "pytestmark", []) + \\
                    [Mark("parametrize", names, values)]
                return fn
            return deco

    class Settings:
        level = 1

    def test_monkeypatch_is_undone(monkeypatch):
        monkeypatch.setattr(Settings, "level", 5)
        monkeypatch.setenv("TLC_FIXTURE_PROBE", "on")
        monkeypatch.setitem(sys.modules, "tlc_fixture_probe", Settings)
        assert Settings.level == 5 and os.environ["TLC_FIXTURE_PROBE"] == "on"

    def test_monkeypatch_was_undone():
        assert Settings.level == 1, Settings.level
        assert "TLC_FIXTURE_PROBE" not in os.environ
        assert "tlc_fixture_probe" not in sys.modules

    def test_tmp_path(tmp_path):
        (tmp_path / "a.txt").write_text("x")
        assert (tmp_path / "a.txt").read_text() == "x"

    def test_capsys(capsys):
        print("captured line")
        assert capsys.readouterr().out == "captured line\\n"

    @parametrize("kind", ["ok", "broken"])
    def test_request_xfail(request, kind):
        assert request.node.name.startswith("test_request_xfail")
        assert request.getfixturevalue("kind") == kind
        if kind == "broken":
            request.applymarker(XFAIL(reason="known", raises=KeyError,
                                      strict=True))
            raise KeyError("expected")

    def test_strict_xpass(request):
        request.applymarker(XFAIL(reason="no error", strict=True))

    tilelang.testing.main()
''')

here = os.path.dirname(os.path.abspath(__file__))
env = dict(os.environ, PYTHONPATH=os.path.join(here, "..", "..", "python"))
runners = ["builtin"]
if importlib.util.find_spec("pytest") is not None:
    runners.append("pytest")
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "test_fixture_forms.py")
    with open(path, "w") as f:
        f.write(SCRIPT)
    for runner in runners:
        proc = subprocess.run([sys.executable, path], capture_output=True,
                              text=True, env=dict(env, TLC_TESTING_RUNNER=runner),
                              timeout=300, cwd=d)
        out = proc.stdout + proc.stderr
        assert proc.returncode == 1, (runner, proc.returncode, out)
        if runner == "builtin":
            for line in ("PASS test_monkeypatch_is_undone",
                         "PASS test_monkeypatch_was_undone",
                         "PASS test_tmp_path", "PASS test_capsys",
                         "PASS test_request_xfail[ok]",
                         "XFAIL test_request_xfail[broken]: known",
                         "FAIL test_strict_xpass",
                         "5 passed, 1 failed, 1 skipped"):
                assert line in out, (line, out)
        else:
            assert "1 failed, 5 passed, 1 xfailed" in out, out
            assert "XPASS(strict)" in out, out
        print(f"testing_fixtures ({runner}): OK")
