"""Hand-written CUDA kernels as tlc artifacts for the sim tests.

The sim device runs an artifact directory: NAME.cu, the device headers in
tlc_device/, and a manifest. Tests that probe the simulator with kernels
written by hand (initcheck.py, cooperative.py) build that directory here:
a kernel `probe_kernel(A, D)` over a float32 input A[32] and an output D,
32 threads a block, optionally preceded by a one-block `init_kernel`.
"""

import json
import os
import shutil

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def manifest(source_file, grid, out_elems=64, d_role="out", shared=0, init=False,
             cooperative=False):
    """The manifest of probe.cu: launches init_kernel (one block) first when
    `init`; `cooperative` marks probe_kernel's launch as T.sync_grid's."""
    def tensor(name, shape, role):
        return {"name": name, "kind": "tensor", "dtype": "float32", "shape": shape,
                "role": role}
    location = f"{source_file}:1:1"
    launch = {"grid": [grid], "block": [32], "dynamic_shared_memory": shared,
              "entry": "probe_kernel", "location": location}
    if cooperative:
        launch["cooperative"] = True
    launches = [launch]
    if init:
        launches.insert(0, {"grid": [1], "block": [32], "dynamic_shared_memory": 0,
                            "entry": "init_kernel", "location": location})
    return {
        "format": "tlc-kernel", "version": 1, "name": "probe", "kernel": "probe",
        "target": "cuda:sm_80", "source_file": source_file,
        "generated_source": "probe.cu", "binary": "probe.fatbin", "entry": "probe_kernel",
        "source_hash": "", "symbols": [],
        "params": [tensor("A", [32], "in"), tensor("D", [out_elems], d_role)],
        "launches": launches,
    }


def write(art, source, manifest_dict):
    """Creates the artifact directory `art` holding probe.cu (`source`), the
    device headers and probe.json (`manifest_dict`)."""
    os.makedirs(art)
    shutil.copytree(os.path.join(ROOT, "runtime", "device", "include", "tlc_device"),
                    os.path.join(art, "tlc_device"))
    with open(os.path.join(art, "probe.cu"), "w") as f:
        f.write(source)
    with open(os.path.join(art, "probe.json"), "w") as f:
        json.dump(manifest_dict, f)
