#!/bin/bash
# Stages the public-script run of docs/perf/python-public-scripts-h200.md
# (fifth run and later) for the device tool, which copies the lead's
# checkout: run from that checkout's root after building tlc-build and
# tlc_cuda there. The public scripts stay out of the repository: the stage
# is an ignored folder (/build*/), removed after the run.
#   bash tests/python/h200_stage_public_scripts.sh [STAGE]
# then, on the device (carry STAGE):
#   LIMIT=45 PAR=14 TOTAL=150 bash STAGE/go.sh
# STAGE/scripts.txt lists the scripts of the log LOG (default: the eleventh
# run's, docs/perf/python-public-scripts-h200-run11.log) that the stage
# holds, so a later run can be compared with it:
#   cd STAGE && SCRIPTS="$(cat scripts.txt)" LIMIT=45 PAR=14 TOTAL=200 bash go.sh
# PACK=1 compresses bin/tlc-build and lib/libtlc_cuda.so with xz (go.sh
# unpacks them), for the device tool's 64 MiB carry limit.
#
# Every fetched file is staged at its upstream path (corpus/examples/cast/
# example_per_token_cast_to_fp8.py), read from the fetch lists
# (FETCH.txt or SOURCES.txt: "NAME UPSTREAM-PATH ..." per line) of the
# folders CORPORA names (default: those of /work/corpus, /work/corpus-tests,
# /work/corpus2, /work/corpus3, /work/corpus4 that exist; the one listing
# an upstream path first gives its file), so a script imports the sibling modules of its own
# upstream directory (examples/deepseek_v32/utils.py for sparse_mla_*,
# examples/gdn/utils.py for gdn's) and relative sys.path entries
# ("../flash_attention") resolve as upstream. go.sh runs each script in its
# directory. corpus/index.txt maps the name a log gives a script to its
# path: the file name, or DIR/FILE (the parent directory's name) for every
# script whose file name two upstream directories hold
# (cast/example_per_token_cast_to_fp8.py, ascend/...). A log name of LOG
# that is now ambiguous selects each of its DIR/FILE scripts.
# A sibling module a script imports that its directory lacks is taken from
# the directory whose path differs only in letter case, if one holds it
# (upstream renamed examples/KDA to examples/kda; the fetched kda files
# import KDA's test_utils.py and FLA_KDA/fla_utils.py); what is still
# missing is listed in STAGE/unresolved.txt. The two Blackwell-only GEMMs
# are left out, as in the fifth run. Modules of a package folder
# (examples/KDA/FLA_KDA) are staged, not run.
# EXTRA="DIR ..." names more fetched folders (each with its FETCH.txt, same
# form), read before the CORPORA folders: a file they hold
# replaces the corpus's at the same upstream path (a newer revision), and
# their scripts join the stage (STAGE/extra.txt lists their names).
# STAGE/order.txt lists every script to run, the ones no run has listed
# first (extra.txt, then the examples LOG does not name but its
# bench_/benchmark_/regression_ timing files), then LOG's
# failures, then the rest of LOG's list: SCRIPTS="$(cat STAGE/order.txt)".
set -e
S=${1:-build-h200-python}
rm -rf "$S"
mkdir -p "$S/bin" "$S/lib" "$S/python" "$S/corpus"
cp build/bin/tlc-build "$S/bin/" && strip "$S/bin/tlc-build"
cp build/lib/libtlc_cuda.so "$S/lib/"
cp -r python/tilelang python/tvm "$S/python/"
cp tests/python/h200_public_scripts_run5.sh "$S/go.sh"
echo "$(git rev-parse HEAD 2>/dev/null)$(git diff --quiet HEAD -- python 2>/dev/null || echo ' + uncommitted python/')" > "$S/commit.txt"
if [ -z "${CORPORA+x}" ]; then
  CORPORA=$(for d in /work/corpus /work/corpus-tests /work/corpus2 /work/corpus3 \
                     /work/corpus4; do [ -d "$d" ] && echo "$d"; done)
fi
EXTRA_N=$(echo ${EXTRA:-} | wc -w)
python3 - "$S/corpus" "${LOG:-docs/perf/python-public-scripts-h200-run11.log}" \
  "$S/scripts.txt" "$S/unresolved.txt" "$S/extra.txt" "$EXTRA_N" ${EXTRA:-} \
  $CORPORA <<'PY'
import ast, collections, os, re, shutil, sys

out, log, scripts_txt, unresolved_txt, extra_txt, extra_n = sys.argv[1:7]
del sys.argv[5:7]  # the source folders follow, as sys.argv[5:]
def listing(src):
    """The fetch list of SRC: FETCH.txt, or SOURCES.txt (NAME PATH COMMIT
    SIZE, the flat corpora's), or None."""
    for name in ("FETCH.txt", "SOURCES.txt"):
        if os.path.exists(os.path.join(src, name)):
            return os.path.join(src, name)
    return None
extra_paths = set()
for src in sys.argv[5:5 + int(extra_n)]:
    for line in open(listing(src)):
        if len(line.split()) > 1:
            extra_paths.add(line.split()[1])
left_out = {"examples/gemm_sm100/gemm_tcgen5mma_ws_persistent.py",
            "examples/gemm_sm100/gemm_mxfp8_blockscaled_1d1d.py"}
staged = {}  # upstream path -> local file
for src in sys.argv[5:]:
    fetch = listing(src)
    if fetch is None:
        continue
    for line in open(fetch):
        parts = line.split()
        if len(parts) < 2 or not parts[1].endswith(".py"):
            continue
        name, path = parts[0], parts[1]
        if path in left_out:
            continue
        # examples__DIR__FILE (no .py) or the file's own name (NAME.py,
        # FLA_KDA/NAME.py), in either folder.
        for cand in (name + ".py", name):
            for root in [src] + sys.argv[5:]:  # its own folder first
                local = os.path.join(root, cand)
                if cand.endswith(".py") and os.path.isfile(local):
                    staged.setdefault(path, local)
                    break
            if path in staged:
                break
for path, local in staged.items():
    os.makedirs(os.path.join(out, os.path.dirname(path)), exist_ok=True)
    shutil.copyfile(local, os.path.join(out, path))

# Sibling imports: a top-level module a script imports that is a .py file
# or a package folder of a fetched directory.
dirs = collections.defaultdict(set)
for path in staged:
    d, f = os.path.split(path)
    dirs[d].add(f[:-3])
    if "/" in d:  # a package folder (FLA_KDA) of its parent directory
        dirs[os.path.dirname(d)].add(os.path.basename(d))
def imported(path):
    try:
        tree = ast.parse(open(os.path.join(out, path)).read())
    except (SyntaxError, ValueError):
        return set()
    mods = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            mods |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            mods.add(node.module)
    return mods
def path_dirs(path):
    """The directories a script appends to sys.path relative to its own
    (sys.path.append(os.path.join(os.path.dirname(__file__), "../x")))."""
    text = open(os.path.join(out, path)).read()
    return [os.path.normpath(os.path.join(os.path.dirname(path), rel))
            for rel in re.findall(
                r"sys\.path\.(?:append|insert)\(.*__file__.*?[\"'](\.\.?/[^\"']+)[\"']",
                text)]
unresolved = []
packages = set()  # folders imported as packages: not scripts
for path in sorted(staged):
    d = os.path.dirname(path)
    for mod in sorted(imported(path)):
        if os.path.isdir(os.path.join(out, d, mod.split(".")[0])):
            packages.add(os.path.join(d, mod.split(".")[0]))
        if any(os.path.exists(os.path.join(out, e, *mod.split(".")) + ".py")
               for e in path_dirs(path)):
            continue
        parts = mod.split(".")
        if parts[0] in dirs[d] and os.path.exists(
                os.path.join(out, d, *parts) + ".py") or \
                os.path.isfile(os.path.join(out, d, *parts, "__init__.py")):
            continue
        if parts[0] not in {m for dd in dirs.values() for m in dd}:
            continue  # an installed package (torch, fla, ...), not a sibling
        rel = os.path.join(*parts) + ".py"
        twins = [dd for dd in dirs if dd != d and dd.lower() == d.lower()
                 and os.path.exists(os.path.join(out, dd, rel))]
        if twins:
            dst = os.path.join(out, d, rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copyfile(os.path.join(out, twins[0], rel), dst)
            # The package's own sibling modules come with it.
            pkg = os.path.join(out, twins[0], os.path.dirname(rel))
            if os.path.dirname(rel):
                for f in os.listdir(pkg):
                    if f.endswith(".py") and not os.path.exists(
                            os.path.join(os.path.dirname(dst), f)):
                        shutil.copyfile(os.path.join(pkg, f),
                                        os.path.join(os.path.dirname(dst), f))
            print(f"{path}: {mod} from {twins[0]}")
        elif not os.path.exists(os.path.join(out, d, rel)):
            unresolved.append(f"{path}: imports {mod}, not in {d}/")
open(unresolved_txt, "w").write("".join(u + "\n" for u in unresolved))

by_file = collections.defaultdict(list)
for path in staged:
    if os.path.dirname(path) not in packages:
        by_file[os.path.basename(path)].append(path)
index = {}
for f, paths in by_file.items():
    for path in paths:
        index[f if len(paths) == 1 else
              os.path.basename(os.path.dirname(path)) + "/" + f] = path
with open(os.path.join(out, "index.txt"), "w") as fh:
    for name in sorted(index):
        fh.write(f"{name} {index[name]}\n")
names = []
if os.path.exists(log):
    for line in open(log):
        m = re.match(r"(\S+\.py) +(rc=|not finished)", line)
        if not m:
            continue
        f = m.group(1)
        names += [f] if f in index else \
            sorted(n for n in index if n.endswith("/" + f))
open(scripts_txt, "w").write("".join(n + "\n" for n in names))
# Modules a sibling script imports (utils.py, bert_padding.py, ...) are
# staged, not run. An upstream test_example_*.py imports its directory's
# example scripts to call their main(): those stay scripts.
imported_by_sibling = set()
for path in staged:
    if os.path.basename(path).startswith("test_example_"):
        continue
    d = os.path.dirname(path)
    for mod in imported(path):
        imported_by_sibling.add(os.path.join(d, *mod.split(".")) + ".py")
runnable = sorted(n for n in index if index[n] not in imported_by_sibling)
# The extra files LOG does not list yet (a later stage keeps the same
# EXTRA folder: what LOG ran goes with LOG's own list).
extra = [n for n in runnable if index[n] in extra_paths and n not in names]
open(extra_txt, "w").write("".join(n + "\n" for n in extra))
# order.txt: what no run has listed first (the extra files, then the
# examples missing from LOG, Blackwell-only and other devices' folders
# left out), then LOG's failures, then the rest of LOG's list.
other_devices = ("examples/ascend/", "examples/amd/", "examples/gemm_sm100/",
                 "examples/blackwell_sm100/", "examples/gemm_tcgen05/")
# Upstream's bench_* / benchmark_* / regression_* files time the examples
# (no reference check of their own): not among the new ones.
timing_only = ("bench_", "benchmark_", "regression_")
new = [n for n in runnable if n not in names and n not in extra and
       index[n].startswith("examples/") and
       not index[n].startswith(other_devices) and
       not os.path.basename(index[n]).startswith(timing_only)]
failed = []
if os.path.exists(log):
    for line in open(log):
        m = re.match(r"(\S+\.py) +rc=(\d+)", line)
        if m and m.group(2) != "0":
            failed += [n for n in names
                       if n == m.group(1) or n.endswith("/" + m.group(1))]
order = list(dict.fromkeys(extra + new + failed + names))
open(os.path.join(os.path.dirname(extra_txt), "order.txt"), "w").write(
    "".join(n + "\n" for n in order))
print(f"order.txt: {len(extra)} extra, {len(new)} new examples, "
      f"{len(failed)} of LOG's failures first; {len(order)} scripts")
print(f"scripts.txt: {len(names)} scripts of {log}; "
      f"{len(unresolved)} unresolved imports (unresolved.txt)")
PY
find "$S" -name __pycache__ -prune -exec rm -rf {} +
if [ "${PACK:-0}" = 1 ]; then
  xz -T2 -f "$S/bin/tlc-build" "$S/lib/libtlc_cuda.so"
fi
echo "staged $(wc -l < "$S/corpus/index.txt") scripts in $S ($(du -sh "$S" | cut -f1))"
