"""Checks a CUDA artifact's source map against its own generated source:
every `// T.op  FILE:LINE:COL` comment line of NAME.cu must map to that
LINE:COL, and the lines after it (until the next such comment) to a line of
the DSL file. Prints the number of comment lines checked, or the first
mismatch."""
import json
import re
import sys

manifest = json.load(open(sys.argv[1]))
source = open(sys.argv[2]).read().split("\n")
entries = {e[0]: e for e in manifest["source_map"]["entries"]}
checked = 0
for number, text in enumerate(source, start=1):
    m = re.match(r"\s*// T\.\w+.*  (\S+):(\d+):(\d+)$", text)
    if not m:
        continue
    e = entries.get(number)
    want = (int(m.group(2)), int(m.group(3)))
    if e is None or (e[2], e[3]) != want:
        print(f"line {number}: {text.strip()!r} maps to "
              f"{None if e is None else (e[2], e[3])}, not {want}")
        sys.exit(1)
    checked += 1
print(f"{checked} location comments agree with the source map")
