"""Builds every program of the given directories for one HIP architecture
(code objects) and reports what does not build, by the reason's family.

Usage: hip_builds.py TLC_BUILD ARCH WORKDIR DIR...

For each DIR/*.py: `tlc-build --target=hip:ARCH -o WORKDIR/NAME FILE`. A
build that succeeds must leave at least one NAME.hsaco; one that fails is
printed as `refused NAME: FAMILY` with FAMILY from its first error line:
"nvidia-only" (hardware CDNA lacks), "lds" (over the workgroup's LDS), or
"other: <message>". Prints a summary line last."""

import glob
import os
import subprocess
import sys


def family(err):
    first = next((l for l in err.splitlines() if "error:" in l), "")
    if "which CDNA GPUs do not have" in first:
        return "nvidia-only"
    if "the LDS a workgroup can allocate" in first:
        return "lds"
    return "other: " + first.split("error:", 1)[-1].strip()


def main():
    tlc_build, arch, work = sys.argv[1:4]
    built = total = 0
    for d in sys.argv[4:]:
        for path in sorted(glob.glob(os.path.join(d, "*.py"))):
            name = os.path.splitext(os.path.basename(path))[0]
            out = os.path.join(work, name)
            total += 1
            r = subprocess.run([tlc_build, "--target=hip:" + arch, "-o", out, path],
                               cwd=d, capture_output=True, text=True)
            if r.returncode != 0:
                print("refused %s: %s" % (name, family(r.stderr)))
                continue
            objects = glob.glob(os.path.join(out, "*.hsaco"))
            if not objects:
                print("NO CODE OBJECT %s" % name)
                continue
            built += 1
    print("%s: %d of %d programs build code objects" % (arch, built, total))


main()
