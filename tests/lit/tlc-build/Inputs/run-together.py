"""run-together.py OUT1 OUT2 -- CMD1... -- CMD2...: starts both commands at
once, each with its standard output and error into its file, and exits
with the worse of their statuses."""
import subprocess
import sys

args = sys.argv[1:]
outs, rest = args[:2], args[2:]
cut = [i for i, a in enumerate(rest) if a == "--"]
commands = [rest[cut[0] + 1:cut[1]], rest[cut[1] + 1:]]
procs = []
for out, cmd in zip(outs, commands):
    procs.append(subprocess.Popen(cmd, stdout=open(out, "w"),
                                  stderr=subprocess.STDOUT))
sys.exit(max(p.wait() for p in procs))
