"""Runs one tests/python script with the package on the path, as ctest
does: exit status 77 (ctest's skip) only when torch is not installed."""

import importlib.util
import os
import runpy
import sys

if importlib.util.find_spec("torch") is None:
    print("SKIP: torch is not installed (Debian: apt-get install python3-torch)")
    sys.exit(77)
script = sys.argv[1]
sys.argv = sys.argv[1:]
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
runpy.run_path(script, run_name="__main__")
