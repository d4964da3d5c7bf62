"""A hostile LSP client for tlc-lsp: framing errors, bad JSON, a 10 MB
document and edits racing with requests. Exits non-zero on the first
failed expectation; prints one line per passed check.

usage: robust_client.py TLC_LSP [KERNEL.py]
"""
import json
import random
import subprocess
import sys
import threading
import time
import queue

SERVER = sys.argv[1]
KERNEL = open(sys.argv[2]).read() if len(sys.argv) > 2 else (
    "import tilelang\nimport tilelang.language as T\n\n"
    "@T.prim_func\ndef k(A: T.Tensor((128, 64), \"float16\")):\n"
    "    with T.Kernel(8, threads=128) as bx:\n"
    "        S = T.alloc_shared((64, 32), \"float16\")\n"
    "        for i in T.Pipelined(4, num_stages=2):\n"
    "            T.copy(A[0, i * 32], S)\n")

proc = subprocess.Popen([SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                        stderr=subprocess.DEVNULL)
messages = queue.Queue()


def reader():
    out = proc.stdout
    while True:
        headers = {}
        while True:
            line = out.readline()
            if not line:
                messages.put(None)
                return
            line = line.strip()
            if not line:
                break
            k, _, v = line.decode().partition(":")
            headers[k.strip().lower()] = v.strip()
        body = out.read(int(headers["content-length"]))
        messages.put(json.loads(body))


threading.Thread(target=reader, daemon=True).start()


def raw(data):
    proc.stdin.write(data)
    proc.stdin.flush()


def send(msg):
    body = json.dumps(msg).encode()
    raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)


pending = {}  # id -> response, filled by wait()


def wait(pred, what, timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            msg = messages.get(timeout=max(0.01, deadline - time.time()))
        except queue.Empty:
            break
        if msg is None:
            fail(what + ": server closed its output")
        if "id" in msg and ("result" in msg or "error" in msg):
            pending[json.dumps(msg["id"])] = msg
        if pred(msg):
            return msg
    fail(what + ": timed out")


def response(id, what, timeout=30):
    key = json.dumps(id)
    if key in pending:
        return pending.pop(key)
    msg = wait(lambda m: m.get("id") == id and "method" not in m, what, timeout)
    pending.pop(key, None)
    return msg


def fail(text):
    print("FAIL:", text)
    proc.kill()
    sys.exit(1)


def ok(text):
    print("ok:", text)
    sys.stdout.flush()


def expect_error(code, what):
    msg = wait(lambda m: "error" in m and m.get("id") is None, what)
    if msg["error"]["code"] != code:
        fail("%s: got %s" % (what, msg))
    ok(what)


# Framing errors before anything else.
raw(b"Content-Length: abc\r\n\r\n")
expect_error(-32700, "non-numeric Content-Length")
raw(b"X-Header-Without-Length: 1\r\n\r\n")
expect_error(-32700, "missing Content-Length")
raw(b"garbage line without colon\r\n\r\n")
expect_error(-32700, "header line without a colon")
body = b'{"jsonrpc":"2.0","id":1,"method":"init'
raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
expect_error(-32700, "truncated JSON")

# Bare "\n" line ends are accepted.
body = json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                   "params": {"capabilities": {}}}).encode()
raw(b"Content-Length: %d\n\n" % len(body) + body)
if "capabilities" not in response(0, "initialize")["result"]:
    fail("initialize result")
ok("initialize with LF-only headers")
send({"jsonrpc": "2.0", "method": "initialized", "params": {}})

raw(b"Content-Length: 10\r\n\r\n\xff\xfe\xfd{}{}{}{")
expect_error(-32700, "invalid UTF-8 body")

# A request whose params have the wrong types.
send({"jsonrpc": "2.0", "id": 2, "method": "textDocument/inlayHint",
      "params": {"textDocument": {"uri": []}, "range": 5}})
if response(2, "wrong types")["error"]["code"] != -32602:
    fail("wrong types")
ok("wrong parameter types")

# A 10 MB document.
copies = KERNEL.replace("def k(", "def k{n}(")
big = "".join(copies.replace("{n}", str(i)) for i in range(10 * 2**20 // len(KERNEL) + 1))
t0 = time.time()
send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
      "params": {"textDocument": {"uri": "file:///big.py", "languageId": "python",
                                  "version": 1, "text": big}}})
send({"jsonrpc": "2.0", "id": 3, "method": "textDocument/inlayHint",
      "params": {"textDocument": {"uri": "file:///big.py"},
                 "range": {"start": {"line": 0, "character": 0},
                           "end": {"line": 40, "character": 0}}}})
# Over the analysis size limit: no hints (an answer, not an error), and
# diagnostics that say why.
hints = response(3, "10 MB inlay hints", timeout=120)
if hints.get("result") != []:
    fail("10 MB document: expected no hints: %s" % str(hints)[:200])
diags = wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
             and m["params"]["uri"] == "file:///big.py", "10 MB diagnostics",
             timeout=120)
notes = [d for d in diags["params"]["diagnostics"]
         if d["severity"] == 3 and "analysis skipped" in d["message"]]
if len(notes) != 1:
    fail("10 MB document: no 'analysis skipped' note: %s"
         % str(diags)[:300])
ok("10 MB document (%d bytes): no hints, one note, in %.2f s"
   % (len(big), time.time() - t0))
send({"jsonrpc": "2.0", "id": 4, "method": "textDocument/documentSymbol",
      "params": {"textDocument": {"uri": "file:///big.py"}}})
if len(response(4, "10 MB symbols", timeout=120).get("result", [])) < 1000:
    fail("10 MB document symbols")
ok("10 MB document symbols")
send({"jsonrpc": "2.0", "method": "textDocument/didClose",
      "params": {"textDocument": {"uri": "file:///big.py"}}})


# Edits racing with requests, checked against a client-side model of the
# text that counts columns in UTF-16 like the server.
def offset(text, line, char):
    lines = text.split("\n")
    base = sum(len(l) + 1 for l in lines[:line])
    col, units = 0, 0
    for ch in lines[line]:
        if units >= char:
            break
        units += 2 if ord(ch) > 0xFFFF else 1
        col += 1
    return base + col


text = KERNEL + "# é 𝔸 ü\n"
send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
      "params": {"textDocument": {"uri": "file:///race.py", "languageId": "python",
                                  "version": 1, "text": text}}})
rng = random.Random(7)
next_id = 100
ids = []
for version in range(2, 402):
    lines = text.split("\n")
    line = rng.randrange(len(lines))
    units = len(lines[line].encode("utf-16-le")) // 2
    a = rng.randint(0, units)
    b = rng.randint(a, units)
    # Keep surrogate pairs whole: snap to character boundaries.
    sa = offset(text, line, a)
    sb = offset(text, line, b)
    ins = rng.choice(["", "x", "1", " ", "é", "𝔸", "(", ")", "\n", "T.copy(", "#"])
    new = text[:sa] + ins + text[sb:]
    ua = len(text[text.rfind("\n", 0, sa) + 1:sa].encode("utf-16-le")) // 2
    ub = len(text[text.rfind("\n", 0, sb) + 1:sb].encode("utf-16-le")) // 2
    send({"jsonrpc": "2.0", "method": "textDocument/didChange",
          "params": {"textDocument": {"uri": "file:///race.py", "version": version},
                     "contentChanges": [{"range": {"start": {"line": line, "character": ua},
                                                   "end": {"line": line, "character": ub}},
                                         "text": ins}]}})
    text = new
    method = rng.choice(["textDocument/inlayHint", "textDocument/hover",
                         "textDocument/definition", "textDocument/documentSymbol"])
    params = {"textDocument": {"uri": "file:///race.py"}}
    if method == "textDocument/inlayHint":
        params["range"] = {"start": {"line": 0, "character": 0},
                           "end": {"line": 999, "character": 0}}
    elif method != "textDocument/documentSymbol":
        params["position"] = {"line": rng.randrange(12), "character": rng.randrange(40)}
    send({"jsonrpc": "2.0", "id": next_id, "method": method, "params": params})
    ids.append(next_id)
    if rng.random() < 0.2:
        send({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": next_id}})
    next_id += 1
cancelled = 0
for i in ids:
    msg = response(i, "racing request %d" % i, timeout=60)
    if "error" in msg:
        if msg["error"]["code"] != -32800:
            fail("racing request %d: %s" % (i, msg))
        cancelled += 1
ok("400 edits racing with requests: all answered (%d cancelled)" % cancelled)
send({"jsonrpc": "2.0", "id": 9, "method": "tilelang/viewFileText",
      "params": {"textDocument": {"uri": "file:///race.py"}}})
if response(9, "viewFileText")["result"] != text:
    fail("server text diverged from the client's")
ok("incremental sync converged")

send({"jsonrpc": "2.0", "id": 10, "method": "shutdown"})
response(10, "shutdown")
send({"jsonrpc": "2.0", "method": "exit"})
code = proc.wait(timeout=10)
if code != 0:
    fail("exit code %d" % code)
ok("shutdown and exit: status 0")
