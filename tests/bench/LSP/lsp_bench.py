#!/usr/bin/python3
"""Drives tlc-lsp like an editor on a ~1,000-line file of kernels.

Opens the file, asks for inlay hints (first hints after open), then makes
many small edits, each followed by `textDocument/inlayHint`, and measures
edit -> fresh hints (a response computed for the edited version). Then
edits without asking and waits for the server's
`workspace/inlayHint/refresh` (sent once the debounced background analysis
of the edited version is done) before asking: edit -> refresh -> fresh
hints, the path an editor takes when it does not re-ask on every keystroke.
Prints p50/p95 latencies and the server's peak RSS (VmHWM).

The edits cycle through few texts per kernel; the line "of which the
edited kernel's text was new" isolates the edits that the server's
per-instance layout cache cannot answer.

usage: lsp_bench.py [--server build/bin/tlc-lsp] [--edits 300] [--lines 1000]
                    [--examples DIR] [-- extra server args]
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import time

KERNEL = '''
@tilelang.jit
def matmul{n}(M, N, K, block_M=128, block_N=128, block_K=32, dtype="float16"):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), "float32")
            T.clear(C_local)
            for ko in T.Pipelined(T.ceildiv(K, block_K), num_stages=3):
                T.copy(A[by * block_M, ko * block_K], A_shared)
                T.copy(B[ko * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main


kernel{n} = matmul{n}(1024, 1024, 1024)
'''


def build_source(lines, examples):
    parts = ["import tilelang\nimport tilelang.language as T\n"]
    files = sorted(glob.glob(os.path.join(examples, "*.py"))) if examples else []
    n = 0
    while sum(p.count("\n") for p in parts) < lines:
        if files:
            parts.append(open(files[n % len(files)]).read() + "\n")
        else:
            parts.append(KERNEL.replace("{n}", str(n)))
        n += 1
    return "".join(parts)


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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--server", default=os.path.join(
        os.path.dirname(__file__), "../../../build/bin/tlc-lsp"))
    ap.add_argument("--edits", type=int, default=300)
    ap.add_argument("--refresh-edits", type=int, default=50)
    ap.add_argument("--lines", type=int, default=1000)
    ap.add_argument("--examples", default=os.path.join(
        os.path.dirname(__file__), "../../../examples"))
    ap.add_argument("extra", nargs="*")
    args = ap.parse_args()

    text = build_source(args.lines, args.examples)
    uri = "file:///bench/kernels.py"
    client = Client([args.server] + args.extra)
    client.request("initialize", {"capabilities": {
        "workspace": {"inlayHint": {"refreshSupport": True}}}})
    client.notify("initialized", {})
    full = {"start": {"line": 0, "character": 0},
            "end": {"line": text.count("\n") + 1, "character": 0}}

    t0 = time.perf_counter()
    client.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "python", "version": 1, "text": text}})
    first = client.request("textDocument/inlayHint",
                           {"textDocument": {"uri": uri}, "range": full})
    first_ms = (time.perf_counter() - t0) * 1000
    nhints = len(first.get("result") or [])

    # Edits: retype the digit of `block_K=32` in successive kernels (a shape
    # change that every hint of the kernel depends on).
    lines = text.split("\n")
    targets = [i for i, l in enumerate(lines) if "block_K=3" in l]
    latencies = []
    # Edits that give the edited kernel a text the server has not analysed
    # before (the server caches layouts per kernel instance, so a repeated
    # text is answered from the cache).
    new_latencies = []
    seen = set((line, "2") for line in targets)
    stale = 0
    for e in range(args.edits):
        line = targets[e % len(targets)]
        col = lines[line].index("block_K=3") + len("block_K=3")
        digit = str(e % 10)
        version = e + 2
        t = time.perf_counter()
        client.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {"start": {"line": line, "character": col},
                                          "end": {"line": line, "character": col + 1}},
                                "text": digit}]})
        lo = max(0, line - 2)
        reply = client.request("textDocument/inlayHint", {
            "textDocument": {"uri": uri},
            "range": {"start": {"line": lo, "character": 0},
                      "end": {"line": line + 20, "character": 0}}})
        latencies.append((time.perf_counter() - t) * 1000)
        if (line, digit) not in seen:
            seen.add((line, digit))
            new_latencies.append(latencies[-1])
        hints = reply.get("result") or []
        if not hints or any(h["data"]["version"] != version for h in hints):
            stale += 1

    # Edits answered through the refresh request.
    refresh_latencies = []
    for e in range(args.refresh_edits):
        line = targets[(e + 7) % len(targets)]
        col = lines[line].index("block_K=3") + len("block_K=3")
        version = args.edits + 2 + e
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
        if not hints or any(h["data"]["version"] != version for h in hints):
            stale += 1

    # Jump to generated source (compiles the kernel in-process and writes
    # the file to the server's cache directory).
    kernel_line = next(i for i, l in enumerate(text.split("\n"))
                       if "T.Kernel(" in l)
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
    client.notify("exit", None)
    client.proc.wait()

    print("file: %d lines, %d bytes, %d hints" % (text.count("\n"), len(text), nhints))
    print("first hints after open: %.1f ms" % first_ms)
    print("edit -> fresh hints (%d edits): p50 %.2f ms, p95 %.2f ms, max %.2f ms"
          % (len(latencies), percentile(latencies, 50), percentile(latencies, 95),
             max(latencies)))
    if new_latencies:
        print("  of which the edited kernel's text was new (%d edits): p50 %.2f ms,"
              " p95 %.2f ms, max %.2f ms"
              % (len(new_latencies), percentile(new_latencies, 50),
                 percentile(new_latencies, 95), max(new_latencies)))
    if refresh_latencies:
        print("edit -> refresh -> fresh hints (%d edits, includes the debounce):"
              " p50 %.2f ms, p95 %.2f ms" % (len(refresh_latencies),
                                             percentile(refresh_latencies, 50),
                                             percentile(refresh_latencies, 95)))
    print("responses not for the edited version: %d" % stale)
    for target, (ms, status) in generated.items():
        print("generatedSource %s: %.1f ms (%s)" % (target, ms, status))
    print("peak RSS: %.1f MB" % (int(rss) / 1024.0))


if __name__ == "__main__":
    main()
