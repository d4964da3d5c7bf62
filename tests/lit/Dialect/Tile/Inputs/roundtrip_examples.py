"""Round-trips the Tile IR of every example through tlc-opt.

For each examples/*.py: `tlc-build --emit=tile` must succeed, the IR must
verify in tlc-opt, printing must reach a fixpoint (print(parse(print(x))) ==
print(x)), and the generic form must parse back to the same custom form.
Prints one line per example; exits 1 on the first failure.
"""

import glob
import os
import subprocess
import sys


def run(cmd, stdin=None):
    proc = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.stdout.write("FAILED: %s\n%s" % (" ".join(cmd), proc.stderr))
        sys.exit(1)
    return proc.stdout


def main():
    examples = sorted(glob.glob(os.path.join(sys.argv[1], "*.py")))
    if not examples:
        print("no examples found")
        return 1
    for path in examples:
        tile = run(["tlc-build", "--emit=tile", path])
        first = run(["tlc-opt", "-"], tile)
        second = run(["tlc-opt", "-"], first)
        if first != second:
            print("FAILED: printing is not a fixpoint for %s" % path)
            return 1
        generic = run(["tlc-opt", "--mlir-print-op-generic", "-"], first)
        if run(["tlc-opt", "-"], generic) != first:
            print("FAILED: generic form differs for %s" % path)
            return 1
        print("ok %s %d ops" % (os.path.basename(path), first.count("tile.")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
