"""``import tvm`` with two copies of tlc's ``python/`` on the path (a
staged copy before the checkout, as the device runs stage the package):
the first copy's stand-in loads, without taking the second copy's for a
real TVM (which recursed until RecursionError); a real TVM further down
the path is still the one loaded."""

import os
import shutil
import subprocess
import sys
import tempfile

CHILD = r'''
import sys
import tvm
from tvm import DataType
import tilelang
print("real" if vars(tvm).get("REAL_TVM") else "stand-in",
      DataType is not None, tvm is sys.modules["tvm"])
'''


def run(pythonpath, script):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(pythonpath))
    out = subprocess.run([sys.executable, script], env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout.split()


def main():
    import tilelang
    package_dir = os.path.dirname(os.path.dirname(os.path.abspath(tilelang.__file__)))
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "stage", "python")
        shutil.copytree(package_dir, copy,
                        ignore=shutil.ignore_patterns("__pycache__"))
        script = os.path.join(tmp, "child.py")
        with open(script, "w") as f:
            f.write(CHILD)
        # Each copy first, the other after it.
        assert run([copy, package_dir], script) == ["stand-in", "True", "True"]
        assert run([package_dir, copy], script) == ["stand-in", "True", "True"]
        # A real TVM (here a package that says so) after both copies.
        real = os.path.join(tmp, "site", "tvm")
        os.makedirs(real)
        with open(os.path.join(real, "__init__.py"), "w") as f:
            f.write("REAL_TVM = True\nclass DataType:\n    pass\n")
        assert run([copy, package_dir, os.path.dirname(real)], script)[0] == "real"
    print("tvm with two copies of the package: all checks passed")


if __name__ == "__main__":
    main()
