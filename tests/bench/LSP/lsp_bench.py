#!/usr/bin/python3
"""Drives tlc-lsp like an editor on files of 10, 40 and 100 kernels.

The files are copies of the examples with distinct names (kernel_file.py:
100 kernels are about 7,000 lines). For each file, a fresh server opens it
and is asked, like an editor, for the inlay hints of the first screen
(lines 0-60: first hints after open); the server then analyses the rest and
sends `workspace/inlayHint/refresh`, after which the hints of the whole file
are asked (all hints after open). Another fresh server is asked for the
whole file's hints at once (first hints of the whole file). Then many small
edits, each followed by `textDocument/inlayHint`, measure edit -> fresh
hints (a response computed for the edited version). Then edits without
asking wait for the server's `workspace/inlayHint/refresh` (sent once the
debounced background analysis of the edited version is done) before
asking: edit -> refresh -> fresh hints, the path an editor takes when it
does not re-ask on every keystroke. Prints p50/p95 latencies and the
server's peak RSS (VmHWM) and CPU time per file, then the scaling table.

The edits retype the last digit of a tile size (`block_M=128`) in
successive kernels; the line "of which the edited kernel's text was new"
isolates the edits that no cache of the server can answer.

usage: lsp_bench.py [--server build/bin/tlc-lsp] [--edits 300]
                    [--kernels 10,40,100] [--examples DIR]
                    [-- extra server args]
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernel_file  # noqa: E402


class Client:
    def __init__(self, argv):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE)
        self.next_id = 1

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def read(self):
        length = None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit("server closed its output")
            line = line.strip()
            if not line:
                break
            key, _, value = line.decode().partition(":")
            if key.lower() == "content-length":
                length = int(value)
        return json.loads(self.proc.stdout.read(length))

    def read_answering(self):
        """Reads one message; requests from the server are answered."""
        msg = self.read()
        if "method" in msg and "id" in msg:
            self.send({"jsonrpc": "2.0", "id": msg["id"], "result": None})
        return msg

    def request(self, method, params):
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        while True:
            msg = self.read_answering()
            if msg.get("id") == rid and "method" not in msg:
                return msg

    def wait_for(self, method):
        while True:
            msg = self.read_answering()
            if msg.get("method") == method:
                return msg

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100.0 * (len(values) - 1))))]


def cpu_seconds(pid):
    """User + system CPU time of process `pid` so far (all its threads)."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / float(os.sysconf("SC_CLK_TCK"))


def measure(argv, text, edits, refresh_edits):
    """One server session on `text`; returns the measurements."""
    uri = "file:///bench/kernels.py"
    client = Client(argv)
    client.request("initialize", {"capabilities": {
        "workspace": {"inlayHint": {"refreshSupport": True}}}})
    client.notify("initialized", {})
    full = {"start": {"line": 0, "character": 0},
            "end": {"line": text.count("\n") + 1, "character": 0}}

    screen = {"start": {"line": 0, "character": 0},
              "end": {"line": 60, "character": 0}}

    t0 = time.perf_counter()
    client.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "python", "version": 1, "text": text}})
    first = client.request("textDocument/inlayHint",
                           {"textDocument": {"uri": uri}, "range": screen})
    first_ms = (time.perf_counter() - t0) * 1000
    first_hints = len(first.get("result") or [])
    # The rest is analysed in the background; the refresh says it is done.
    client.wait_for("workspace/inlayHint/refresh")
    everything = client.request("textDocument/inlayHint",
                                {"textDocument": {"uri": uri}, "range": full})
    all_ms = (time.perf_counter() - t0) * 1000
    nhints = len(everything.get("result") or [])
    screen_all = client.request("textDocument/inlayHint",
                                {"textDocument": {"uri": uri}, "range": screen})
    # The first screen's hints from the partial analysis are the complete
    # analysis' ones.
    first_equal = first.get("result") == screen_all.get("result")

    # Edits: retype the last digit of a tile size in successive kernels (a
    # shape change that every hint of the kernel depends on).
    lines = text.split("\n")
    targets = []
    for i, line in enumerate(lines):
        m = re.search(r"block_[MNK](?:: int)? ?= ?\d+", line)
        if m and line.startswith("def "):
            targets.append((i, m.end() - 1, line[m.end() - 1]))
    latencies = []
    # Edits that give the edited kernel a text the server has not analysed
    # before (the server keeps the results of each slice and the layouts of
    # each kernel instance, so a repeated text is answered from a cache).
    new_latencies = []
    seen = set((line, digit) for line, _, digit in targets)
    stale = 0
    # Responses without hints (a size the kernel rejects: its instance
    # fails and has no facts).
    empty = 0
    edit_cpu = cpu_seconds(client.proc.pid)
    for e in range(edits):
        line, col, _ = targets[e % len(targets)]
        digit = str(e % 10)
        version = e + 2
        t = time.perf_counter()
        client.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {"start": {"line": line, "character": col},
                                          "end": {"line": line, "character": col + 1}},
                                "text": digit}]})
        reply = client.request("textDocument/inlayHint", {
            "textDocument": {"uri": uri},
            "range": {"start": {"line": max(0, line - 2), "character": 0},
                      "end": {"line": line + 20, "character": 0}}})
        latencies.append((time.perf_counter() - t) * 1000)
        if (line, digit) not in seen:
            seen.add((line, digit))
            new_latencies.append(latencies[-1])
        hints = reply.get("result") or []
        if any(h["data"]["version"] != version for h in hints):
            stale += 1
        if not hints:
            empty += 1

    # The server's CPU time per edit of the loop above (its mean: the
    # clock ticks are 10 ms), less sensitive to the machine's load than the
    # latencies.
    edit_cpu = (cpu_seconds(client.proc.pid) - edit_cpu) * 1000 / max(edits, 1)

    # Edits answered through the refresh request. A refresh the background
    # analysis of the last edit above may still send is read first.
    time.sleep(0.5)
    client.request("textDocument/inlayHint",
                   {"textDocument": {"uri": uri}, "range": screen})
    refresh_latencies = []
    for e in range(refresh_edits):
        line, col, _ = targets[(e + 7) % len(targets)]
        version = edits + 2 + e
        t = time.perf_counter()
        client.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {"start": {"line": line, "character": col},
                                          "end": {"line": line, "character": col + 1}},
                                "text": str(e % 10)}]})
        client.wait_for("workspace/inlayHint/refresh")
        reply = client.request("textDocument/inlayHint", {
            "textDocument": {"uri": uri},
            "range": {"start": {"line": max(0, line - 2), "character": 0},
                      "end": {"line": line + 20, "character": 0}}})
        refresh_latencies.append((time.perf_counter() - t) * 1000)
        hints = reply.get("result") or []
        if any(h["data"]["version"] != version for h in hints):
            stale += 1
        if not hints:
            empty += 1

    # Jump to generated source (compiles the kernel in-process and writes
    # the file to the server's cache directory).
    kernel_line = next(i for i, l in enumerate(lines) if "T.Kernel(" in l)
    generated = {}
    for target in ("tile", "cpu"):
        t = time.perf_counter()
        reply = client.request("tilelang/generatedSource", {
            "textDocument": {"uri": uri},
            "position": {"line": kernel_line + 1, "character": 12},
            "target": target})
        generated[target] = ((time.perf_counter() - t) * 1000,
                             "ok" if "result" in reply else
                             reply["error"]["message"][:80])

    client.request("shutdown", None)
    with open("/proc/%d/status" % client.proc.pid) as f:
        rss = [l for l in f if l.startswith("VmHWM")][0].split()[1]
    # The server's CPU time over the whole session: what the work cost,
    # whatever else the machine runs.
    cpu = cpu_seconds(client.proc.pid)
    client.notify("exit", None)
    client.proc.wait()
    return {"lines": text.count("\n"), "bytes": len(text), "hints": nhints,
            "first": first_ms, "first_hints": first_hints, "all": all_ms,
            "first_equal": first_equal, "edits": latencies, "new": new_latencies,
            "refresh": refresh_latencies, "stale": stale, "empty": empty,
            "generated": generated, "rss": int(rss) / 1024.0, "cpu": cpu,
            "edit_cpu": edit_cpu}


def first_whole(argv, text):
    """A fresh server asked for the whole file's hints right after open."""
    uri = "file:///bench/kernels.py"
    client = Client(argv)
    client.request("initialize", {"capabilities": {}})
    client.notify("initialized", {})
    full = {"start": {"line": 0, "character": 0},
            "end": {"line": text.count("\n") + 1, "character": 0}}
    t0 = time.perf_counter()
    client.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "python", "version": 1, "text": text}})
    client.request("textDocument/inlayHint",
                   {"textDocument": {"uri": uri}, "range": full})
    ms = (time.perf_counter() - t0) * 1000
    client.request("shutdown", None)
    client.notify("exit", None)
    client.proc.wait()
    return ms


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--server", default=os.path.join(
        os.path.dirname(__file__), "../../../build/bin/tlc-lsp"))
    ap.add_argument("--edits", type=int, default=300)
    ap.add_argument("--refresh-edits", type=int, default=50)
    ap.add_argument("--kernels", default="10,40,100",
                    help="comma-separated kernel counts, one file each")
    ap.add_argument("--examples", default=os.path.join(
        os.path.dirname(__file__), "../../../examples"))
    ap.add_argument("extra", nargs="*")
    args = ap.parse_args()

    rows = []
    for kernels in [int(k) for k in args.kernels.split(",")]:
        text = kernel_file.build(kernels, args.examples)
        r = measure([args.server] + args.extra, text, args.edits,
                    args.refresh_edits)
        r["whole"] = first_whole([args.server] + args.extra, text)
        rows.append((kernels, r))
        lat = r["edits"]
        print("== %d kernels: %d lines, %d bytes, %d hints"
              % (kernels, r["lines"], r["bytes"], r["hints"]))
        print("first hints after open (lines 0-60, %d hints): %.1f ms%s"
              % (r["first_hints"], r["first"],
                 "" if r["first_equal"] else
                 " -- DIFFERENT from the complete analysis' hints"))
        print("all hints after open (after the refresh): %.1f ms" % r["all"])
        print("first hints of the whole file (another server): %.1f ms"
              % r["whole"])
        print("edit -> fresh hints (%d edits): p50 %.2f ms, p95 %.2f ms, max %.2f ms"
              % (len(lat), percentile(lat, 50), percentile(lat, 95), max(lat)))
        new = r["new"]
        if new:
            print("  of which the edited kernel's text was new (%d edits): p50 %.2f ms,"
                  " p95 %.2f ms, max %.2f ms"
                  % (len(new), percentile(new, 50), percentile(new, 95), max(new)))
        print("  server CPU time per edit (mean): %.2f ms" % r["edit_cpu"])
        ref = r["refresh"]
        if ref:
            print("edit -> refresh -> fresh hints (%d edits, includes the debounce):"
                  " p50 %.2f ms, p95 %.2f ms" % (len(ref), percentile(ref, 50),
                                                 percentile(ref, 95)))
        print("responses not for the edited version: %d (without hints: %d)"
              % (r["stale"], r["empty"]))
        for target, (ms, status) in r["generated"].items():
            print("generatedSource %s: %.1f ms (%s)" % (target, ms, status))
        print("peak RSS: %.1f MB" % r["rss"])
        print("server CPU time (user + system, whole session): %.2f s"
              % r["cpu"])
        sys.stdout.flush()

    print()
    print("kernels  lines   first hints    all hints  edit->hints p50  p95 (new text)     peak RSS  CPU/edit")
    for kernels, r in rows:
        new = r["new"] or r["edits"]
        print("%7d  %5d  %9.1f ms  %8.1f ms  %12.2f ms  %6.2f ms (%6.2f ms)  %6.1f MB  %5.2f ms"
              % (kernels, r["lines"], r["first"], r["all"],
                 percentile(r["edits"], 50), percentile(r["edits"], 95),
                 percentile(new, 95), r["rss"], r["edit_cpu"]))


if __name__ == "__main__":
    main()
