"""Exits 0 when the file argv[2] names argv[1] process ids (one a line) and
none of them still runs (gone, or a zombie left for its reaper) within 5 s;
else prints the ones that run and exits 1."""
import sys
import time


def running(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            stat = f.read()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


pids = [int(line) for line in open(sys.argv[2]) if line.strip()]
if len(pids) != int(sys.argv[1]):
    sys.exit("expected %s process ids, found %d" % (sys.argv[1], len(pids)))
for _ in range(100):
    alive = [p for p in pids if running(p)]
    if not alive:
        sys.exit(0)
    time.sleep(0.05)
sys.exit("still running: %s" % alive)
