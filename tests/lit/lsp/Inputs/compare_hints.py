"""Checks that tlc-lsp shows the facts `tlc-build --emit=hints` prints.

usage: compare_hints.py HINTS.json LSP_TRANSCRIPT_OUTPUT

HINTS.json is tlc-build's hint array; the transcript output is what
`make_transcript.py FILE | tlc-lsp --lit-test` printed (its reply with id 1
holds every inlay hint). For the first instance of each kernel (the one the
server shows), every tensor, buffer, launch and pipeline hint must appear as
an inlay hint on the same line, with the label this script derives from the
JSON (its own table of short dtype and scope names). Prints one line per
mismatch and a summary.
"""
import json
import sys

SCOPES = {"global": "global", "shared": "shared", "shared.dyn": "shared",
          "local.fragment": "fragment", "local": "local", "local.var": "var"}
DTYPES = {"float16": "f16", "float32": "f32", "float64": "f64",
          "bfloat16": "bf16", "int8": "i8", "int16": "i16", "int32": "i32",
          "int64": "i64", "uint8": "u8", "uint32": "u32", "bool": "bool",
          "float8_e4m3fn": "e4m3fn", "float8_e5m2": "e5m2"}


def messages(text):
    dec = json.JSONDecoder()
    i = 0
    while True:
        j = text.find("{", i)
        if j < 0:
            return
        obj, i = dec.raw_decode(text, j)
        yield obj


def expected_label(h):
    dims = ", ".join(str(d) for d in h["shape"])
    if h["kind"] in ("tensor", "buffer"):
        shape = "" if h["scope"] == "local.var" and h["shape"] == [1] \
            else "[" + dims + "]"
        return "%s %s%s" % (SCOPES[h["scope"]], DTYPES.get(h["dtype"], h["dtype"]),
                            shape)
    if h["kind"] == "kernel":
        grid = "×".join(str(d) for d in h["shape"]) or "1"
        threads = h["detail"].split(" ")[0]
        # A warp-specialised launch: the program's threads + the producer's.
        if h.get("producerThreads"):
            threads += " + %d producer" % h["producerThreads"]
        return "grid %s · %s threads" % (grid, "?" if threads == "symbolic"
                                         else threads)
    if h["kind"] == "pipeline":
        return h["detail"]
    return None


hints = json.load(open(sys.argv[1]))
out = open(sys.argv[2], encoding="utf-8").read()
inlay = next(m for m in messages(out) if m.get("id") == 1)["result"]
shown = {}
for h in inlay:
    shown.setdefault(h["position"]["line"], []).append(h["label"])

first = {}
for h in hints:
    first.setdefault(h["kernel"], h["instance"])
checked = bad = 0
for h in hints:
    if first[h["kernel"]] != h["instance"]:
        continue
    label = expected_label(h)
    if label is None:
        continue
    checked += 1
    labels = shown.get(h["line"] - 1, [])
    # Launch labels go on with the shared memory; compare the prefix.
    if not any(l == label or l.startswith(label + " · ") for l in labels):
        bad += 1
        print("MISMATCH line %d: tlc-build says %r, tlc-lsp shows %r"
              % (h["line"], label, labels))
print("%d hints checked, %d mismatches" % (checked, bad))
