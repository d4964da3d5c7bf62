#!/usr/bin/env python3
"""Static opcode counts of the wgmma hot loop of sm_90a kernels (issue 14).

Usage: python3 sass_hot_loop.py [--probe] [--raw] [--all-loops] FILE.cubin...

--all-loops also lists every loop that holds an HGMMA (address, size,
HGMMA, FSEL, FSETP, ISETP, MUFU): a causal loop split by tile-split-masks
has an all-true copy without the mask's selects next to the masked one.

With cuobjdump (the GPU machine): disassembles each kernel, finds the
innermost loop (a backward branch and its target label) that holds an
HGMMA, and prints that loop's static instruction count and opcode mix
(one iteration: R2UR, IMAD, UIADD3, HGMMA, ...), next to the kernel's.

Without cuobjdump (the development machine has nvcc and ptxas but no
disassembler): reads each kernel's .text section from the cubin itself and
takes the opcode from bits 0-11 of each 128-bit instruction. Only the
opcodes that --probe confirms are named (HGMMA, R2UR, FSEL of a register
or an immediate, SHFL.IDX of a
register to an immediate lane, as the warpgroup index's broadcast compiles,
and I2F, as an integer division by a run-time value starts: I2F.U32.RP of
the divisor, from a vector or a uniform register); the loop is not
decoded, so the counts are over the whole kernel and over the span from
its first to its last HGMMA (the instructions issued between a tile's
first and last wgmma); --raw picks this reading where cuobjdump exists. --probe compiles two small kernels with nvcc, one
whose wgmma descriptor is uniform and one whose descriptor depends on
threadIdx.x, and checks that the table's HGMMA appears once in each, its
R2UR only in the second and its SHFL (the uniform one's broadcast
warpgroup index) only in the first, and compiles a division by a kernel
parameter (one I2F) next to one by a constant (none): the table holds for
the installed ptxas.
"""

import collections
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

# Opcode field (bits 0-11) of sm_90 SASS, as --probe checks them.
RAW = {0x9F0: "HGMMA", 0x2CA: "R2UR", 0x589: "SHFL", 0x306: "I2F", 0xD06: "I2F",
       0x208: "FSEL", 0x808: "FSEL"}
NAMED = ("HGMMA", "R2UR", "SHFL", "I2F", "IMAD", "UIADD3", "IADD3", "LOP3", "UMOV", "MOV",
         "SHF")


def text_sections(path):
    """(kernel, [128-bit instruction as (lo, hi)]) per .text section."""
    out = subprocess.run(["readelf", "-S", "-W", path], capture_output=True,
                         text=True, check=True).stdout
    data = open(path, "rb").read()
    for line in out.splitlines():
        m = re.search(r"\]\s+\.text\.(\S+)\s+PROGBITS\s+\S+\s+([0-9a-f]+)\s+([0-9a-f]+)",
                      line)
        if m:
            off, size = int(m.group(2), 16), int(m.group(3), 16)
            yield m.group(1), [struct.unpack_from("<QQ", data, off + i)
                               for i in range(0, size, 16)]


def raw_counts(path):
    for kernel, ins in text_sections(path):
        ops = [lo & 0xFFF for lo, _ in ins]
        hg = [i for i, o in enumerate(ops) if RAW.get(o) == "HGMMA"]
        span = ops[hg[0]:hg[-1] + 1] if hg else []
        shfl = [i for i, o in enumerate(ops) if RAW.get(o) == "SHFL"]
        near = [hg[0] - i for i in shfl if hg and i < hg[0]]
        print(f"{path} {kernel}: {len(ops)} instructions, "
              f"R2UR {sum(RAW.get(o) == 'R2UR' for o in ops)}, "
              f"I2F {sum(RAW.get(o) == 'I2F' for o in ops)}, "
              f"HGMMA {len(hg)}; first..last HGMMA: {len(span)} instructions, "
              f"R2UR {sum(RAW.get(o) == 'R2UR' for o in span)}"
              + (f"; lane-0 SHFL {len(shfl)}, the last before the first HGMMA "
                 f"{min(near)} instructions before it" if near else "")
              + f"; FSEL {sum(RAW.get(o) == 'FSEL' for o in ops)}")


def opcode(ins):
    words = ins.split()
    op = words[1] if words[0].startswith("@") else words[0]
    return op.split(".")[0]


def sass_counts(path, cuobjdump, all_loops=False):
    sass = subprocess.run([cuobjdump, "-sass", path], capture_output=True,
                          text=True, check=True).stdout
    kernels = re.split(r"\n\s*Function : ", sass)[1:]
    for body in kernels:
        name = body.split("\n", 1)[0].strip()
        ins, labels = [], {}
        for line in body.splitlines():
            lab = re.match(r"\s*(\.L_x_\d+):", line)
            if lab:
                labels[lab.group(1)] = len(ins)
                continue
            m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;", line)
            if m:
                ins.append((int(m.group(1), 16), m.group(2)))
        at = {addr: i for i, (addr, _) in enumerate(ins)}
        loops = []
        for i, (_, text) in enumerate(ins):
            if opcode(text) != "BRA":
                continue
            t = re.search(r"`\((\.L_x_\d+)\)", text)
            target = labels.get(t.group(1)) if t else None
            if target is None:
                a = re.search(r"BRA\S*\s+(?:[A-Z0-9!]+,\s*)?0x([0-9a-f]+)", text)
                target = at.get(int(a.group(1), 16)) if a else None
            if target is not None and target <= i:
                body_ops = [opcode(x) for _, x in ins[target:i + 1]]
                if "HGMMA" in body_ops:
                    loops.append((i + 1 - target, target, body_ops))
        allc = collections.Counter(opcode(x) for _, x in ins)
        print(f"== {name}: {len(ins)} instructions "
              f"({', '.join(f'{o} {allc[o]}' for o in NAMED if allc[o])})")
        if not loops:
            print("   no loop holds an HGMMA")
            continue
        size, start, ops = min(loops)
        c = collections.Counter(ops)
        per = size / c["HGMMA"]
        print(f"   hot loop at 0x{ins[start][0]:04x}: {size} instructions per "
              f"iteration, {c['HGMMA']} HGMMA ({per:.1f} instructions per HGMMA)")
        print("   " + ", ".join(f"{o} {n}" for o, n in c.most_common()))
        if all_loops:
            # Every loop holding an HGMMA (a split causal loop has two), in
            # address order, with its mask selects.
            for size, start, ops in sorted(loops, key=lambda x: x[1]):
                c = collections.Counter(ops)
                print(f"   loop at 0x{ins[start][0]:04x}: {size} instructions, "
                      f"HGMMA {c['HGMMA']}, FSEL {c['FSEL']}, FSETP {c['FSETP']}, "
                      f"ISETP {c['ISETP']}, MUFU {c['MUFU']}")


PROBE = r"""
#include <cstdint>
extern "C" __global__ void probe(float *out, uint64_t a, uint64_t b) {
  float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  int group = 0;
#if PERTHREAD
  a += threadIdx.x / 128;
#else
  group = __shfl_sync(0xffffffff, (int)threadIdx.x / 128, 0);
#endif
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 "
               "{%0,%1,%2,%3}, %4, %5, p, 1, 1, 0, 0;\n}\n"
               : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "l"(a), "l"(b));
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  out[threadIdx.x] = d0 + d1 + d2 + d3 + group;
}
"""


# A division by a kernel parameter (uniform: I2F from a uniform register),
# by a per-thread value (I2F from a vector register), or by a constant.
DIVIDE = r"""
extern "C" __global__ void probe(int *out, int a, int b, const int *c) {
#if DIVISOR == 0
  const int d = b;
#elif DIVISOR == 1
  const int d = c[threadIdx.x];
#else
  const int d = 10;
#endif
  out[threadIdx.x] = (a + (int)threadIdx.x) / d + (a + (int)threadIdx.x) % d;
}
"""


def probe_counts(d, source, name, flags):
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    open(f"{d}/{name}.cu", "w").write(source)
    subprocess.run([nvcc, "-arch=sm_90a", "-cubin", "-O3", *flags, f"{d}/{name}.cu",
                    "-o", f"{d}/{name}.cubin"], check=True)
    (_, ins), = text_sections(f"{d}/{name}.cubin")
    return collections.Counter(RAW.get(lo & 0xFFF) for lo, _ in ins)


# A float select of two loaded values (one FSEL) next to their sum (none).
SELECT = r"""
extern "C" __global__ void probe(float *o, const float *x, const float *y) {
  const float a = x[threadIdx.x], b = y[threadIdx.x];
#if SELECT
  o[threadIdx.x] = a > b * 2.0f ? a : b;
#else
  o[threadIdx.x] = a + b;
#endif
}
"""


def probe():
    with tempfile.TemporaryDirectory() as d:
        counts = [probe_counts(d, PROBE, f"p{t}", [f"-DPERTHREAD={t}"]) for t in (0, 1)]
        div = [probe_counts(d, DIVIDE, f"d{t}", [f"-DDIVISOR={t}"]) for t in (0, 1, 2)]
        sel = [probe_counts(d, SELECT, f"s{t}", [f"-DSELECT={t}"]) for t in (1, 0)]
    print(f"probe: FSEL of a select / a sum {sel[0]['FSEL']} {sel[1]['FSEL']} "
          f"(expected 1 0): {'ok' if [c['FSEL'] for c in sel] == [1, 0] else 'MISMATCH'}")
    ok = ([c["FSEL"] for c in sel] == [1, 0] and
          counts[0]["HGMMA"] == 1 == counts[1]["HGMMA"] and counts[0]["R2UR"] == 0
          and counts[1]["R2UR"] == 2 and counts[0]["SHFL"] == 1
          and counts[1]["SHFL"] == 0
          and [c["I2F"] for c in div] == [1, 1, 0])
    print(f"probe: uniform descriptor HGMMA {counts[0]['HGMMA']} R2UR "
          f"{counts[0]['R2UR']}; per-thread descriptor HGMMA {counts[1]['HGMMA']} "
          f"R2UR {counts[1]['R2UR']}; SHFL {counts[0]['SHFL']} {counts[1]['SHFL']}; "
          f"I2F of a division by a parameter / per-thread value / constant "
          f"{' '.join(str(c['I2F']) for c in div)} "
          f"(expected 1 0; 1 2; 1 0; 1 1 0): {'ok' if ok else 'MISMATCH'}")
    return ok


def main():
    args = sys.argv[1:]
    if "--probe" in args:
        args.remove("--probe")
        if not probe():
            sys.exit(1)
    raw = "--raw" in args
    all_loops = "--all-loops" in args
    args = [a for a in args if a not in ("--raw", "--all-loops")]
    cuobjdump = shutil.which("cuobjdump")
    if not cuobjdump and os.path.exists("/usr/local/cuda/bin/cuobjdump"):
        cuobjdump = "/usr/local/cuda/bin/cuobjdump"
    for path in args:
        if cuobjdump and not raw:
            sass_counts(path, cuobjdump, all_loops)
        else:
            raw_counts(path)


if __name__ == "__main__":
    main()
