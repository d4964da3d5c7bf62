#!/usr/bin/python3
"""Writes one large TileLang file made of N copies of the examples.

Copy n of an example gets every name its top level defines renamed with the
suffix `_n` (`matmul` -> `matmul_3`, its `main` -> `main_3`), so that the
copies are independent kernels with distinct names, as in a real file of
many kernels. Comment lines are dropped, and blank lines but one before top-level
statements; imports
stay in every copy. Two kinds of module-level values are planted so that
edits to them matter to some kernels only:

* every fourth copy reads its own constant: `threads=128` in its factory's
  signature becomes `threads=THREADS_n`, with `THREADS_n = 128` above it;
* every tenth copy reads the one shared constant `THREADS` instead (defined
  after the first imports), so editing it changes ten kernels.

The language server's benchmark (lsp_bench.py) and its unit tests
(tests/unit/LSP, through CMake) use this file.

usage: kernel_file.py --kernels 100 [--examples DIR] [-o FILE]
"""
import argparse
import glob
import os
import re
import sys

HEADER = "import tilelang\nimport tilelang.language as T\n\nTHREADS = 128\n"

_TOP_NAME = re.compile(r"^(?:def|class)\s+([A-Za-z_]\w*)|^([A-Za-z_]\w*)\s*=[^=]")


def _top_level_names(lines):
    names = []
    for line in lines:
        m = _TOP_NAME.match(line)
        if m:
            names.append(m.group(1) or m.group(2))
    return names


def _copy(text, n):
    lines = [l for l in text.split("\n") if not l.lstrip().startswith("#")]
    out = []
    for i, line in enumerate(lines):
        # A blank line only before a top-level statement.
        if line.strip() == "":
            following = next((l for l in lines[i + 1:] if l.strip()), "")
            if not out or out[-1] == "" or following[:1] in (" ", ""):
                continue
        out.append(line.rstrip())
    body = "\n".join(out).strip("\n") + "\n"
    for name in sorted(set(_top_level_names(out)), key=len, reverse=True):
        body = re.sub(r"(?<![\w.])%s\b" % re.escape(name), "%s_%d" % (name, n),
                      body)
    # The first factory signature's `threads=128` default, if any.
    constant = None
    if n % 10 == 0:
        constant = "THREADS"
    elif n % 4 == 1:
        constant = "THREADS_%d" % n
    if constant:
        at = body.find("threads=128")
        if at < 0:
            at = body.find("threads: int = 128")
        if at >= 0:
            old = "threads=128" if body.startswith("threads=128", at) else \
                "threads: int = 128"
            body = body[:at] + old.replace("128", constant) + \
                body[at + len(old):]
            if constant != "THREADS":
                decorator = body.rfind("\n@", 0, at)
                decorator = 0 if decorator < 0 else decorator + 1
                body = body[:decorator] + "%s = 128\n\n" % constant + \
                    body[decorator:]
    return body


def build(kernels, examples):
    """The text of a file of `kernels` example copies."""
    files = sorted(glob.glob(os.path.join(examples, "*.py")))
    if not files:
        raise SystemExit("no examples in %s" % examples)
    parts = [HEADER]
    for n in range(kernels):
        with open(files[n % len(files)]) as f:
            parts.append("\n\n" + _copy(f.read(), n))
    return "".join(parts)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kernels", type=int, default=100)
    ap.add_argument("--examples", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "../../../examples"))
    ap.add_argument("-o", "--output")
    args = ap.parse_args()
    text = build(args.kernels, args.examples)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
