"""Prints the strides and symbols the manifests under argv[1] record
(strided-params.py)."""
import json
import os
import sys

d = sys.argv[1]
for name in ("views", "pitched_kernel", "gemm_views"):
    m = json.load(open(os.path.join(d, name + ".json")))
    print(m["kernel"], "version", m["version"])
    print(m["kernel"], "symbols",
          " ".join(s["name"] + ":" + s["kind"] for s in m["symbols"]))
    for p in m["params"]:
        print(p["name"], "strides", p.get("strides"))
    maps = [t for l in m["launches"] for t in l.get("tensor_maps", [])]
    if maps:
        print(m["kernel"], " ".join(t["param"] + " strides " + str(t["strides"])
                                    for t in maps))
