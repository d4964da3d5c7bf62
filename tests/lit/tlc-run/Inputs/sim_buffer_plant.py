"""Plants accesses that run off one shared buffer into its neighbour in the
generated source (NAME.cu or NAME.hip) of sim-memcheck-buffers.py and runs
each on the sim device. Usage: TLC_RUN ARTIFACT WORKDIR.

Every fault goes into one copy of the source, each guarded by its number
in the environment variable TLC_PLANT (read by the planted code), so the
sim compiles the kernel once (its object cache) and each run switches on
one fault: run 0 has none. Prints, per run, the run's memcheck line, else
its first checker line (or `clean` / `no report`)."""
import glob
import os
import re
import shutil
import subprocess
import sys

tlc_run, artifact, work = sys.argv[1:4]

# (name, pattern, replacement) on the kernel's source, applied in order to
# the first match; {on} is the fault's guard. s and t are 256 bytes each, t
# right after s. The near faults land in the 1 KiB red zone between them,
# the far ones (320 elements, 1280 bytes) jump it into the other buffer.
FAULTS = [
    # Writes t's bytes through s (each thread then overwrites its own t).
    ("store-past-s", r"s\[\(int\)threadIdx\.x\] = ", "s[(int)threadIdx.x + ({on} ? 64 : 0)] = "),
    # Reads t's bytes through s after the barrier: no race, no initcheck.
    ("load-past-s", r"= s\[(t_\d+)\];", r"= s[\1 + ({on} ? 64 : 0)];"),
    # Reads s's bytes through t.
    ("load-before-t", r"= t\[\(int\)threadIdx\.x\];", "= t[(int)threadIdx.x - ({on} ? 64 : 0)];"),
    # Writes s's bytes through t, past the red zone.
    ("far-store-before-t", r"t\[\(int\)threadIdx\.x\] = ", "t[(int)threadIdx.x - ({on} ? 320 : 0)] = "),
    # Reads t's bytes through s, past the red zone.
    ("far-load-past-s", r"= s\[(t_\d+)\];", r"= s[\1 + ({on} ? 320 : 0)];"),
    # Through pointer arithmetic, as the printers address a T.Pipelined
    # buffer's stage (`(B_shared + stage * 2048)[i]`): reads s's bytes
    # through `(t + k)[i]`, and writes t's bytes through `*(s + k)`, both
    # past the red zone.
    ("far-load-before-t-pointer", r"= t\[(t_\d+)\];", r"= (t + ({on} ? -320 : 0))[\1];"),
    ("far-store-past-s-pointer", r"s\[(\(int\)threadIdx\.x \+ \(tlcPlanted\(1\) \? 64 : 0\))\] = ",
     r"*(s + \1 + ({on} ? 320 : 0)) = "),
]
# Put in front of the kernel's first line, so that every line keeps its
# number (the source map's).
GUARD = ('extern "C" char *getenv(const char *) noexcept; '
         'static bool tlcPlanted(int n) { const char *p = getenv("TLC_PLANT"); '
         'return p && p[0] == char(48 + n) && !p[1]; } ')

dst = os.path.join(work, "planted")
shutil.rmtree(dst, ignore_errors=True)
shutil.copytree(artifact, dst)
(src,) = glob.glob(os.path.join(dst, "*.cu")) + glob.glob(os.path.join(dst, "*.hip"))
text = open(src).read()
for number, (name, pattern, replacement) in enumerate(FAULTS, 1):
    text, n = re.subn(pattern, replacement.replace("{on}", "tlcPlanted(%d)" % number),
                      text, count=1)
    if n != 1:
        print(name, "not planted")
entry = text.index('extern "C" __global__')
open(src, "w").write(text[:entry] + GUARD + text[entry:])

for number, name in enumerate(["untouched"] + [f[0] for f in FAULTS]):
    run = subprocess.run([tlc_run, dst, "--device", "sim"],
                         capture_output=True, text=True,
                         env=dict(os.environ, TLC_SIM_INITCHECK="off",
                                  TLC_PLANT=str(number)))
    out = run.stdout + run.stderr
    # memcheck's line first: a store that misses its buffer also leaves
    # that buffer unwritten (initcheck's, on the shared read after it).
    found = (re.search(r"memcheck: .*", out) or
             re.search(r"(initcheck|racecheck|synccheck): .*", out))
    if found:
        print(name + ":", found.group(0))
    else:
        print(name + ":", "clean" if run.returncode == 0 else "no report")
