"""Prints each manifest's kernel, version and dynamic shared memory (an
expression of the symbols for shared buffers of symbolic shape)."""
import json
import sys

for path in sys.argv[1:]:
    with open(path) as f:
        m = json.load(f)
    for launch in m["launches"]:
        print(m["name"], "version", m["version"], "shared",
              launch["dynamic_shared_memory"])
