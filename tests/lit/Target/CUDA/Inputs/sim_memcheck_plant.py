"""Plants out-of-bounds accesses in the CUDA source of sim-memcheck-bounds.py
and runs each on the sim device. Usage: TLC_RUN ARTIFACT WORKDIR. Prints,
per fault, the run's first checker line (or `clean` / `no report`)."""
import glob
import os
import re
import shutil
import subprocess
import sys

tlc_run, artifact, work = sys.argv[1:4]

# name: (pattern, replacement) on the kernel's .cu. The shared faults index
# a moved pointer (`(s - 64)[t]`): the sim checks the index of `s[...]`
# against the buffer first (sim-memcheck-buffers.py), and these test the
# checks of the address itself.
FAULTS = {
    "untouched": None,
    "shared-load-below": (r"= s\[(t)\];", r"= (s - 64)[\1];"),
    "shared-store-below": (r"s\[\(int\)threadIdx\.x\] = ", "(s - 3)[(int)threadIdx.x] = "),
    "shared-store-past": (r"s\[\(int\)threadIdx\.x\] = ", "(s + 3)[(int)threadIdx.x] = "),
    "global-load-below": (r"A\[\(int\)threadIdx\.x\]", "A[(int)threadIdx.x - 2]"),
    "global-store-past": (r"B\[\(int\)threadIdx\.x\] = ", "B[(int)threadIdx.x + 1] = "),
    "shared-never-written": (r"\n\s*s\[\(int\)threadIdx\.x\] = x;", ""),
}

for name, fault in FAULTS.items():
    dst = os.path.join(work, name)
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(artifact, dst)
    if fault:
        (cu,) = glob.glob(os.path.join(dst, "*.cu"))
        text = open(cu).read()
        planted, n = re.subn(fault[0], fault[1], text)
        if n != 1:
            print(name, "not planted (%d matches)" % n)
            continue
        open(cu, "w").write(planted)
    run = subprocess.run([tlc_run, dst, "--device", "sim"],
                         capture_output=True, text=True)
    out = run.stdout + run.stderr
    found = re.search(r"(memcheck|initcheck|racecheck|synccheck): .*", out)
    if found:
        print(name + ":", found.group(0))
    else:
        print(name + ":", "clean" if run.returncode == 0 else "no report")
