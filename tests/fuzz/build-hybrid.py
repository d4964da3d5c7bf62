#!/usr/bin/env python3
"""Builds the libFuzzer programs with coverage on each target's own code only.

The fuzz targets' time went largely to libFuzzer's per-input bookkeeping over
the ~40,000 features of all of tlc (docs/perf/fuzz.md). This build recompiles
with clang only the sources each target is about, with -fsanitize-coverage,
and links them ahead of the uninstrumented static libraries of a normal
Release build (BUILD, default build/), whose archive members they replace:

  parser    compiler/lib/Syntax, compiler/lib/Support
  eval      + compiler/lib/Eval, compiler/lib/Driver, compiler/lib/Lang
  lsp       Syntax, Support + the protocol layer of lsp/ (framing, JSON-RPC,
            documents, dispatch); the analyses it calls stay uninstrumented
  manifest  compiler/lib/Target/Artifact
  npy       runtime/lib

  python3 tests/fuzz/build-hybrid.py [--build build] [--out build-fuzz/hybrid]
      [--coverage inline-8bit-counters,pc-table] [--jobs 2] [TARGET...]

Needs `ninja -C BUILD tlc-fuzz-replay-TARGET` first (the archives and the
link line). Programs: OUT/bin/tlc-fuzz-TARGET, linked with libstdc++ and
libgcc static so that they run on the H200 host's Ubuntu. A second run
recompiles only the objects whose source, headers (the compiler's
dependency file OBJ.d) or command changed.
"""
import argparse
import concurrent.futures
import json
import os
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SETS = {
    "parser": ["compiler/lib/Syntax/", "compiler/lib/Support/"],
    "eval": ["compiler/lib/Syntax/", "compiler/lib/Support/",
             "compiler/lib/Eval/", "compiler/lib/Driver/", "compiler/lib/Lang/"],
    "lsp": ["compiler/lib/Syntax/", "compiler/lib/Support/",
            "lsp/LSPServer.cpp", "lsp/ProtocolJSON.cpp", "lsp/Transport.cpp",
            "lsp/Server.cpp", "lsp/Scheduler.cpp", "lsp/Document.cpp"],
    "manifest": ["compiler/lib/Target/Artifact/"],
    "npy": ["runtime/lib/"],
}
SOURCES = {"parser": "FuzzParser.cpp", "eval": "FuzzEval.cpp", "lsp": "FuzzLSP.cpp",
           "manifest": "FuzzManifest.cpp", "npy": "FuzzNpy.cpp"}


def clang_args(command, coverage, extra, sanitize=""):
    """The gcc command of compile_commands.json as a clang command."""
    args = shlex.split(command)
    out = ["clang++-22"]
    skip = False
    for a in args[1:]:
        if skip:
            skip = False
            continue
        if a in ("-o", "-c", "-MF", "-MT"):
            skip = True
            continue
        if a.startswith("-W") or a.startswith("-O") or a.startswith("-fdiagnostics"):
            continue
        if a.endswith(".cpp"):
            continue
        out.append(a)
    out += ["-O2", "-g0", "-w", "-fsanitize-coverage=" + coverage]
    if sanitize:
        out += ["-O1", "-g1", "-fsanitize=" + sanitize, "-fno-sanitize=vptr",
                "-fno-omit-frame-pointer", "-fno-sanitize-recover=all"]
    return out + extra


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--build", default="build")
    p.add_argument("--out", default="build-fuzz/hybrid")
    p.add_argument("--coverage", default="inline-8bit-counters,pc-table")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--compile-only", action="store_true")
    p.add_argument("--sanitize", default="",
                   help="e.g. address,undefined: to replay what a run found")
    p.add_argument("targets", nargs="*", default=list(SOURCES))
    a = p.parse_args()
    os.chdir(ROOT)
    build = os.path.abspath(a.build)
    out = os.path.abspath(a.out)
    cc = json.load(open(os.path.join(build, "compile_commands.json")))
    bysrc = {os.path.relpath(c["file"], ROOT): c["command"] for c in cc}
    jobs = {}  # object -> compile command
    plan = {}
    for t in a.targets:
        srcs = sorted(s for s in bysrc
                      if any(s == pre or (pre.endswith("/") and s.startswith(pre)
                                          and "/" not in s[len(pre):])
                             for pre in SETS[t]))
        fuzz_src = "tests/fuzz/" + SOURCES[t]
        objs = []
        for s in srcs + [fuzz_src]:
            cmd = bysrc.get(s) or bysrc["tests/fuzz/" + SOURCES[t]]
            extra = ["-fexceptions", "-DTLC_FUZZING"] if s == fuzz_src else []
            obj = os.path.join(out, "obj", s + ".o")
            args = clang_args(cmd, a.coverage, extra, a.sanitize) + ["-c", s, "-o", obj]
            jobs[obj] = args
            objs.append(obj)
        plan[t] = objs

    def up_to_date(obj, stamp, deps, args):
        """The object exists, was built by these arguments and is newer than
        its source and every header the compiler read for it (deps)."""
        if not all(os.path.exists(f) for f in (obj, stamp, deps)):
            return False
        if open(stamp).read() != " ".join(args):
            return False
        # A make rule, continued lines joined: "obj: src hdr1 hdr2 ...".
        text = open(deps).read().replace("\\\n", " ")
        files = text.split(":", 1)[1].split() if ":" in text else []
        built = os.path.getmtime(obj)
        return all(os.path.exists(f) and os.path.getmtime(f) < built for f in files)

    def compile_one(item):
        obj, args = item
        os.makedirs(os.path.dirname(obj), exist_ok=True)
        src = args[args.index("-c") + 1]
        stamp, deps = obj + ".cmd", obj + ".d"
        if up_to_date(obj, stamp, deps, args):
            return None
        r = subprocess.run(["nice", "-n", "10"] + args + ["-MMD", "-MF", deps],
                           capture_output=True, text=True)
        if r.returncode:
            return f"{src}:\n{r.stderr[-3000:]}"
        open(stamp, "w").write(" ".join(args))
        print("compiled", src, flush=True)
        return None

    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        errors = [e for e in ex.map(compile_one, jobs.items()) if e]
    if errors:
        sys.exit("\n".join(errors))
    if a.compile_only:
        return

    os.makedirs(os.path.join(out, "bin"), exist_ok=True)
    for t, objs in plan.items():
        # The replay program's link line: its archives, in order.
        line = subprocess.run(["ninja", "-C", build, "-t", "commands",
                               f"tlc-fuzz-replay-{t}"], capture_output=True,
                              text=True, check=True).stdout.strip().splitlines()[-1]
        args = shlex.split(line.replace(": && ", "").replace(" && :", ""))
        libs = [x for x in args if x.endswith(".a") or x.endswith(".so") or x.startswith("-l")]
        libs = [x if os.path.isabs(x) or x.startswith("-") else os.path.join(build, x)
                for x in libs]
        # An archive not built yet is fine where this target's objects
        # already define all it would give (parser: Syntax and Support).
        libs = [x for x in libs if x.startswith("-") or os.path.exists(x)]
        exe = os.path.join(out, "bin", f"tlc-fuzz-{t}")
        san = ["-fsanitize=" + a.sanitize] if a.sanitize else []
        cmd = (["clang++-22", "-fsanitize=fuzzer"] + san + ["-static-libstdc++", "-static-libgcc",
                "-Wl,--as-needed", "-o", exe] + objs + libs)
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode:
            sys.exit(f"link {t}:\n{r.stderr[-4000:]}")
        print("linked", exe, flush=True)


if __name__ == "__main__":
    main()
