#!/usr/bin/python3
"""Differential test of tlc's PEP 263 decoder against Python's codecs.

For every name of `encodings.aliases` and every codec module of
`encodings` (plus a few names Python does not know), writes a file
`# coding: NAME` followed by all printable ASCII bytes and all bytes
0x80-0xFF, and checks what `tlc-decode-source` makes of it:

* a name CPython decodes with a codec tlc supports: the same text as
  `bytes.decode(codec, "replace")`, and a diagnostic exactly when Python's
  strict decoding fails, at the first undefined byte;
* a name Python does not know: "unknown encoding";
* a known codec tlc does not decode: "not supported", and the bytes kept.

Usage: codec_diff.py TLC_DECODE_SOURCE
"""

import codecs
import encodings
import encodings.aliases
import os
import pkgutil
import subprocess
import sys
import tempfile

BODY = bytes(range(0x20, 0x7F)) + b"\n" + bytes(range(0x80, 0x100)) + b"\n"


def python_codec(name):
    """The codec CPython's tokenizer uses for a declaration `name`, or
    None when Python does not know it."""
    head = name[:12].lower().replace("_", "-")
    if head == "utf-8" or head.startswith("utf-8-"):
        return "utf_8"
    for latin in ("latin-1", "iso-8859-1", "iso-latin-1"):
        if head == latin or head.startswith(latin + "-"):
            return "latin_1"
    try:
        info = codecs.lookup(name)
    except LookupError:
        return None
    if not getattr(info, "_is_text_encoding", True):
        return None
    return info.name.replace("-", "_")


def main():
    tool = sys.argv[1]
    names = set(encodings.aliases.aliases)
    names |= {m.name for m in pkgutil.iter_modules(encodings.__path__)}
    names -= {"aliases"}
    names |= {"uft-8", "no-such-codec", "latin-2-x"}
    names = sorted(n for n in names
                   if all(c.isalnum() or c in "-_." for c in n))
    failures = checked = supported = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "t.py")
        for name in names:
            head = b"# coding: " + name.encode() + b"\n"
            with open(path, "wb") as f:
                f.write(head + BODY)
            proc = subprocess.run([tool, path], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE)
            got = proc.stdout
            diags = proc.stderr.decode("utf-8", "replace")
            codec = python_codec(name)
            checked += 1
            problem = None
            if codec is None:
                if "unknown encoding" not in diags:
                    problem = "expected 'unknown encoding', got %r" % diags
            elif "not supported by tlc" in diags:
                if got != head + BODY:
                    problem = "unsupported codec changed the bytes"
                if codec in ("utf_8", "latin_1", "ascii", "cp1252", "koi8_r"):
                    problem = "required codec %s reported unsupported" % codec
            else:
                supported += 1
                want = (head + BODY).decode(codec, "replace").encode("utf-8")
                if codec in ("utf_8", "utf_8_sig"):
                    want = head + BODY  # kept; the lexer reports bad bytes
                try:
                    (head + BODY).decode(codec)
                    strict_ok = True
                except UnicodeDecodeError:
                    strict_ok = False
                if got != want:
                    problem = "decoded text differs from Python's"
                elif strict_ok == bool(diags) and codec not in (
                        "utf_8", "utf_8_sig"):
                    problem = "diagnostics %r, Python strict decoding %s" % (
                        diags, "succeeds" if strict_ok else "fails")
                elif not strict_ok and codec not in ("utf_8", "utf_8_sig"):
                    err = None
                    try:
                        (head + BODY).decode(codec)
                    except UnicodeDecodeError as e:
                        err = e
                    at = len(err.object[:err.start].decode(codec)
                             .encode("utf-8"))
                    if not diags.startswith("%d-" % at):
                        problem = "first error at %s, Python's at %d" % (
                            diags.split(":")[0], at)
            if problem:
                failures += 1
                if failures <= 10:
                    print("MISMATCH %s (%s): %s" % (name, codec, problem))
    print("names: %d checked, %d decoded by tlc; %d mismatches" %
          (checked, supported, failures))
    print("PASS" if failures == 0 else "FAIL")
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
