#!/usr/bin/python3
"""Differential test: `tlc-build --emit=ast` against CPython's `ast`.

Runs over every .py file of the standard library of the Python running
it (sysconfig's "stdlib" path, test/ included), with one tlc-build process
for all files. A file CPython accepts must dump the same statements and get
no tlc error; a file CPython rejects with a SyntaxError (bad coding
declarations, invalid characters, Python 2 code) must get at least one tlc
error. Prints the first differences and fails on any.

Usage: stdlib_ast_diff.py TLC_BUILD [ROOT]
"""

import ast
import os
import subprocess
import sys
import sysconfig
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ast_dump  # noqa: E402


def collect(root):
    files = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        rel = os.path.relpath(dirpath, root)
        if "site-packages" in rel or "dist-packages" in rel:
            continue
        for name in sorted(filenames):
            if name.endswith(".py"):
                files.append(os.path.join(dirpath, name))
    return files


def split_dump(text, files):
    """Splits multi-file output into {file: [lines]}."""
    result = {}
    current = None
    for line in text.split("\n"):
        if line.startswith("==> ") and line.endswith(" <=="):
            current = line[4:-4]
            result[current] = []
        elif current is not None and line:
            result[current].append(line)
    if len(files) == 1:
        result = {files[0]: [l for l in text.split("\n") if l]}
    return result


def main():
    tlc_build = sys.argv[1]
    root = sys.argv[2] if len(sys.argv) > 2 else sysconfig.get_paths()["stdlib"]
    files = collect(root)
    accepted, expected, rejected = [], {}, []
    start = time.time()
    for path in files:
        try:
            tree = ast_dump.parse(path)
        except (SyntaxError, ValueError, UnicodeDecodeError):
            rejected.append(path)
            continue
        except (RecursionError, MemoryError):
            continue  # CPython's limits, not its grammar
        lines = []
        ast_dump.dump(tree, lines)
        expected[path] = lines
        accepted.append(path)
    oracle_time = time.time() - start
    start = time.time()
    proc = subprocess.run([tlc_build, "--emit=ast", "--no-source-lines"]
                          + accepted, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE)
    tlc_time = time.time() - start
    out = proc.stdout.decode("utf-8", "replace")
    err = proc.stderr.decode("utf-8", "replace")
    actual = split_dump(out, accepted)
    failures = 0
    for path in accepted:
        got = actual.get(path)
        want = expected[path]
        if got == want:
            continue
        failures += 1
        if failures <= 10:
            print("MISMATCH: %s" % path)
            if got is None:
                print("  no output from tlc-build")
                continue
            for i in range(max(len(got), len(want))):
                g = got[i] if i < len(got) else "<end>"
                w = want[i] if i < len(want) else "<end>"
                if g != w:
                    print("  line %d: tlc=%r cpython=%r" % (i + 1, g, w))
                    break
    error_files = sorted({line.split(":", 1)[0] for line in err.splitlines()
                          if ": error: " in line})
    for path in error_files[:10]:
        print("UNEXPECTED ERRORS: %s" % path)
        for line in err.splitlines():
            if line.startswith(path + ":"):
                print("  " + line)
                break
    missed = []
    if rejected:
        proc2 = subprocess.run([tlc_build, "--emit=ast", "--no-source-lines"]
                               + rejected, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
        err2 = proc2.stderr.decode("utf-8", "replace")
        flagged = {line.split(":", 1)[0] for line in err2.splitlines()
                   if ": error: " in line}
        missed = [path for path in rejected if path not in flagged]
    for path in missed[:10]:
        print("NO ERROR FOR A FILE CPYTHON REJECTS: %s" % path)
    print("files: %d accepted by CPython, %d rejected; "
          "%d mismatches, %d accepted files with tlc errors, "
          "%d rejected files without" %
          (len(accepted), len(rejected), failures, len(error_files),
           len(missed)))
    print("time: CPython ast %.2fs, tlc-build %.2fs" % (oracle_time, tlc_time))
    ok = (failures == 0 and not error_files and not missed and
          proc.returncode == 0)
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
