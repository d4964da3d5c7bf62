"""Damages build-cache entries or an artifact's binary, for the tests.

usage: damage.py DIR half|empty|flip        every *.so entry under DIR
       damage.py DIR half-file|empty-file FILE
"""
import glob
import os
import sys

where, how = sys.argv[1], sys.argv[2]
files = [sys.argv[3]] if how.endswith("-file") else \
    glob.glob(os.path.join(where, "*.so"))
if not files:
    sys.exit(f"damage.py: no file to damage in {where}")
for path in files:
    size = os.path.getsize(path)
    if how.startswith("half"):
        os.truncate(path, size // 2)
    elif how.startswith("empty"):
        os.truncate(path, 0)
    elif how == "flip":
        with open(path, "r+b") as f:
            f.seek(size * 3 // 4)
            byte = f.read(1)
            f.seek(size * 3 // 4)
            f.write(bytes([byte[0] ^ 0xFF]))
    else:
        sys.exit(f"damage.py: unknown damage {how}")
