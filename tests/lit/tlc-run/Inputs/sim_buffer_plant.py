"""Plants accesses that run off one shared buffer into its neighbour in the
generated source (NAME.cu or NAME.hip) of sim-memcheck-buffers.py and runs
each on the sim device. Usage: TLC_RUN ARTIFACT WORKDIR. Prints, per fault,
the run's memcheck line, else its first checker line (or `clean` / `no report`)."""
import glob
import os
import re
import shutil
import subprocess
import sys

tlc_run, artifact, work = sys.argv[1:4]

# name: (pattern, replacement) on the kernel's source. Every planted access
# stays inside the block's shared memory: s and t are 256 bytes each, t
# right after s, and s's faulty index lands in t (or t's in s).
FAULTS = {
    "untouched": None,
    # Reads t's bytes through s after the barrier: no race, no initcheck.
    "load-past-s": (r"= s\[(t_\d+)\];", r"= s[\1 + 64];"),
    # Reads s's bytes through t.
    "load-before-t": (r"= t\[\(int\)threadIdx\.x\];", "= t[(int)threadIdx.x - 64];"),
    # Writes t's bytes through s (each thread then overwrites its own t).
    "store-past-s": (r"s\[\(int\)threadIdx\.x\] = ", "s[(int)threadIdx.x + 64] = "),
}

for name, fault in FAULTS.items():
    dst = os.path.join(work, name)
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(artifact, dst)
    if fault:
        (src,) = glob.glob(os.path.join(dst, "*.cu")) + glob.glob(os.path.join(dst, "*.hip"))
        text = open(src).read()
        planted, n = re.subn(fault[0], fault[1], text)
        if n != 1:
            print(name, "not planted (%d matches)" % n)
            continue
        open(src, "w").write(planted)
    run = subprocess.run([tlc_run, dst, "--device", "sim"],
                         capture_output=True, text=True,
                         env=dict(os.environ, TLC_SIM_INITCHECK="off"))
    out = run.stdout + run.stderr
    # memcheck's line first: a store that misses its buffer also leaves
    # that buffer unwritten (initcheck's, on the shared read after it).
    found = (re.search(r"memcheck: .*", out) or
             re.search(r"(initcheck|racecheck|synccheck): .*", out))
    if found:
        print(name + ":", found.group(0))
    else:
        print(name + ":", "clean" if run.returncode == 0 else "no report")
