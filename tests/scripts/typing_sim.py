#!/usr/bin/python3
"""Types every program of the given folders into tlc-lsp, as an editor would.

For each `.py` file found (recursively, sorted) under the arguments (folders
or files; a missing folder is skipped, an empty one contributes nothing),
one fresh server is started (`--debounce-ms=0` unless --server-arg is given)
and:

  1. The whole file is opened under its own file:// URI and its inlay hints
     for the whole document are asked for: the *full-file hints*. Its
     diagnostics are awaited, and the document is closed.
  2. The same URI is opened again with an empty text and grown by
     incremental `textDocument/didChange` edits (--full-text: full-text
     changes), each inserting the text up to the next *cut* at the end of
     the document. Cuts: after the newline of every line (the last cut is
     the whole file), plus (unless --quick) --mid-cuts (default 3) offsets
     strictly inside non-blank lines, sampled by random.Random seeded with
     "SEED:BASENAME" (--seed, default 0), so every run cuts alike.
  3. After the empty open and after each edit, `textDocument/inlayHint` is
     asked for the whole document and, when the prefix imports tilelang
     (a mirror of the server's `importsTileLang`, lsp/Document.cpp; other
     documents get no diagnostics), the `textDocument/publishDiagnostics`
     of that very version is awaited. The server advertises no
     `diagnosticProvider`, so pull diagnostics are not used. Each of these
     waits is bounded by --timeout seconds (default 10).

Failures (any makes the exit status 1; typing a file stops at its first
crash or hang):

  * crash     the server exits or closes its output before `shutdown`;
  * hang      no inlayHint response, or no publishDiagnostics for the
              edited version, within --timeout;
  * error     an error response to textDocument/inlayHint;
  * stale     a hint whose `data.version` (the document version the
              server computed it for) is not the version just sent;
  * internal  the server's stderr has a line containing "exception",
              "mismatch" or "didChange" (an escaped exception in a work
              item, an incremental reparse that disagrees with the text, a
              rejected edit); a line is charged to the cut during or after
              which it is read;
  * final     at the last cut (the complete file, typed incrementally) the
              hints are not exactly the full-file hints: the sorted lists
              of (line, character, label) must be equal;
  * missing   at a cut c, a required full-file hint (same line, character
              and label) is not among the prefix's hints. Required are the
              full-file hints inside a top-level `def` or `class` D (from
              its first decorator to its end; the full file is parsed with
              Python's `ast`) with ready(D) <= c, where, for top-level
              statements:
                end(S)   the offset where S ends;
                deps(S)  the largest end of the top-level statements that
                         bind (def, class, any name stored in it) a name
                         read anywhere in S, transitively through what
                         those read (a local that shares a top-level name
                         counts too, which only delays the requirement);
                U uses F F's name, or a name bound by a top-level
                         statement that uses F, is the root of a called
                         expression (`F(...)`, `F.compile(...)`) or occurs
                         in an argument of a call (`tilelang.compile(F)`)
                         inside U; for a function U only its body counts,
                         as it runs only when U is called (so after
                         `func = F(...)`, `tilelang.compile(func,
                         target="c")` uses F too: its target changes the
                         hints);
                run(S)   for a statement that is not a function:
                         max(end(S), deps(S)); for a function F: undefined
                         (F never runs) when no other top-level statement
                         that uses F runs, else max(end(F), deps(F), run(U)
                         for every user U of F that runs);
                ready(D) run(D) when defined, else max(end(D), deps(D)).
              So a kernel factory's hints are required once the factory,
              everything it reads and every instantiating statement that
              runs are typed: for `kernel = matmul(1024, ...)` at module
              level, after that line; for a call inside `def main()`, only
              after the `if __name__ == "__main__": main()` that runs it
              (before that the server shows symbolic hints such as
              `f16[M, K]`, which are not compared). Hints in module-level
              code are only checked by the final comparison.

Per file one line "PASS|FAIL FILE: lines, cuts, full-file hints (how many
(cut, hint) pairs were required), max latency (didChange sent -> hints
received; -> diagnostics received)" and its failures, then "PASS|FAIL:
files, failed, cuts, seconds"; -v adds a line per cut. Each failing
prefix is written to --failures-dir (default /tmp/typing_sim_failures) as
BASENAME.cutN.KIND.py with BASENAME.cutN.KIND.txt (what failed, the
server's stderr); at most --max-saved (default 3) per file and kind.

usage: typing_sim.py [--server build/bin/tlc-lsp] [--seed 0] [--quick]
                     [--mid-cuts 3] [--timeout 10] [--full-text]
                     [--server-arg ARG]... [--failures-dir DIR]
                     [--max-saved 3] [-v] DIR_OR_FILE...
"""
import argparse
import ast
import json
import os
import queue
import random
import re
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class ServerDied(Exception):
    pass


class Hang(Exception):
    pass


class Server:
    """One tlc-lsp process; stdout and stderr are read by threads."""

    def __init__(self, argv):
        # The binary may be briefly missing while it is being rebuilt.
        for attempt in range(4):
            try:
                self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE,
                                             stdout=subprocess.PIPE,
                                             stderr=subprocess.PIPE)
                break
            except OSError as e:
                if attempt == 3:
                    raise SystemExit("typing_sim: cannot start %s: %s" % (argv[0], e))
                print("typing_sim: cannot start %s (%s); retrying in 20 s" % (argv[0], e))
                time.sleep(20)
        self.messages = queue.Queue()
        self.stderr_lines = []
        self.stderr_lock = threading.Lock()
        self.next_id = 1
        # uri -> set of versions for which diagnostics were published.
        self.diagnostics = {}
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read_stdout(self):
        out = self.proc.stdout
        try:
            while True:
                length = None
                while True:
                    line = out.readline()
                    if not line:
                        self.messages.put(None)
                        return
                    line = line.strip()
                    if not line:
                        break
                    key, _, value = line.decode("latin-1").partition(":")
                    if key.lower() == "content-length":
                        length = int(value)
                body = out.read(length) if length is not None else b""
                if length is None or len(body) < length:
                    self.messages.put(None)
                    return
                self.messages.put(json.loads(body))
        except Exception as e:  # malformed output counts as a crash
            self.messages.put(None)
            with self.stderr_lock:
                self.stderr_lines.append("typing_sim: unreadable server output: %s" % e)

    def _read_stderr(self):
        for line in self.proc.stderr:
            with self.stderr_lock:
                self.stderr_lines.append(line.decode("utf-8", "replace").rstrip("\n"))

    def stderr_since(self, start):
        with self.stderr_lock:
            return self.stderr_lines[start:]

    def stderr_count(self):
        with self.stderr_lock:
            return len(self.stderr_lines)

    def died(self, what):
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            pass
        rc = self.proc.poll()
        if rc is None:
            status = "closed its output"
        elif rc < 0:
            status = "killed by signal %d" % -rc
        else:
            status = "exited with status %d" % rc
        return ServerDied("server %s during %s" % (status, what))

    def send(self, msg, what):
        body = json.dumps(msg).encode()
        try:
            self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self.died(what)

    def _handle(self, msg):
        """Answers the server's requests and records its diagnostics."""
        if "method" in msg and "id" in msg:
            self.send({"jsonrpc": "2.0", "id": msg["id"], "result": None},
                      "answering " + msg["method"])
        elif msg.get("method") == "textDocument/publishDiagnostics":
            p = msg.get("params") or {}
            self.diagnostics.setdefault(p.get("uri"), set()).add(p.get("version"))

    def _next(self, deadline, what):
        left = deadline - time.monotonic()
        if left <= 0:
            raise Hang("no answer to %s" % what)
        try:
            msg = self.messages.get(timeout=left)
        except queue.Empty:
            raise Hang("no answer to %s" % what)
        if msg is None:
            self.messages.put(None)  # stays dead
            raise self.died(what)
        self._handle(msg)
        return msg

    def request(self, method, params, timeout):
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method,
                   "params": params}, method)
        deadline = time.monotonic() + timeout
        while True:
            msg = self._next(deadline, method)
            if msg.get("id") == rid and "method" not in msg:
                return msg

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params}, method)

    def wait_diagnostics(self, uri, version, timeout):
        deadline = time.monotonic() + timeout
        what = "publishDiagnostics of version %d" % version
        while version not in self.diagnostics.get(uri, ()):
            self._next(deadline, what)

    def stop(self):
        """Shuts down politely; kills when that does not work."""
        try:
            if self.proc.poll() is None:
                self.request("shutdown", None, 5)
                self.notify("exit", None)
                self.proc.wait(timeout=5)
        except (ServerDied, Hang, subprocess.TimeoutExpired):
            pass
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def imports_tilelang(text):
    """Mirror of importsTileLang in lsp/Document.cpp."""
    pos = 0
    while True:
        pos = text.find("tilelang", pos)
        if pos < 0:
            return False
        line_start = text.rfind("\n", 0, pos) + 1
        head = text[line_start:pos].lstrip(" \t")
        nxt = text[pos + 8] if pos + 8 < len(text) else "\n"
        whole = nxt in ". ,\n\r\t;"
        if (whole and (head.startswith("import ") or head.startswith("from "))
                and "#" not in head and '"' not in head and "'" not in head):
            return True
        pos += 8


def utf16_len(s):
    return len(s.encode("utf-16-le")) // 2


def end_position(text):
    """LSP position (UTF-16) of the end of `text`."""
    line = text.count("\n")
    last = text[text.rfind("\n") + 1:]
    return {"line": line, "character": utf16_len(last)}


def to_offsets(text):
    """Maps (line, UTF-16 column) and ast (lineno, byte col) to offsets."""
    starts = [0]
    for i, ch in enumerate(text):
        if ch == "\n":
            starts.append(i + 1)
    lines = text.split("\n")

    def from_ast(lineno, col_bytes):
        line = lines[lineno - 1]
        return starts[lineno - 1] + len(line.encode("utf-8")[:col_bytes].decode("utf-8", "replace"))

    def from_lsp(line, char16):
        if line >= len(lines):
            return len(text)
        s, n = lines[line], 0
        for i, ch in enumerate(s):
            if n >= char16:
                return starts[line] + i
            n += 2 if ord(ch) > 0xFFFF else 1
        return starts[line] + len(s)

    return from_ast, from_lsp


class Definition:
    def __init__(self, name, begin, end, node):
        self.name, self.begin, self.end, self.node = name, begin, end, node
        self.ready = end  # offset from which its hints are required


def required_points(text):
    """Top-level definitions with the offset from which their hints are
    required (see the module docstring); None when `text` does not parse."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    from_ast, _ = to_offsets(text)
    stmts = []
    for node in tree.body:
        begin_line = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        begin = from_ast(begin_line, 0)
        end = from_ast(node.end_lineno, node.end_col_offset)
        stmts.append((node, begin, end))

    def names_read(node):
        return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}

    def called_names(node):
        """Names called (the root of `f(...)`, `f.compile(...)`) or passed
        to a call (`tilelang.compile(f, ...)`) in `node`."""
        out = set()
        for n in ast.walk(node):
            if isinstance(n, ast.Call):
                f = n.func
                while isinstance(f, ast.Attribute):
                    f = f.value
                if isinstance(f, ast.Name):
                    out.add(f.id)
                for arg in n.args + [k.value for k in n.keywords]:
                    out |= {a.id for a in ast.walk(arg) if isinstance(a, ast.Name)}
        return out

    def bound_names(node):
        """Top-level names a statement binds."""
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return {node.name}
        return {n.id for n in ast.walk(node)
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}

    # Where each top-level name is last bound (its statement's end).
    defined_end = {}
    for node, begin, end in stmts:
        for name in bound_names(node):
            defined_end[name] = max(defined_end.get(name, 0), end)

    def closure(node):
        """End of the last top-level definition `node` reads, transitively."""
        seen, todo, point = set(), list(names_read(node)), 0
        while todo:
            name = todo.pop()
            if name in seen or name not in defined_end:
                continue
            seen.add(name)
            point = max(point, defined_end[name])
            for n, b, e in stmts:
                if e == defined_end[name]:
                    todo.extend(names_read(n))
        return point

    def body_calls(node):
        """Names called when `node` runs (a function: when it is called)."""
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return set().union(*[called_names(n) for n in node.body])
        return called_names(node)

    def callers(node):
        """The statements that use `node`: call it or pass it to a call, or
        do so with a name bound by such a statement (`func = factory(...)`
        then `tilelang.compile(func, target=...)`), transitively."""
        names, found, changed = {node.name}, [], True
        while changed:
            changed = False
            for other, b, e in stmts:
                if other is node or any(o is other for o, _ in found):
                    continue
                if names & body_calls(other):
                    found.append((other, e))
                    names |= bound_names(other)
                    changed = True
        return found

    def executed(node, end, seen):
        """Offset from which `node` has run in the prefix (a function: once
        a statement that runs it is complete), None if it never runs."""
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return max(end, closure(node))
        if node in seen:
            return None
        seen = seen | {node}
        points = [executed(other, e, seen) for other, e in callers(node)]
        points = [p for p in points if p is not None]
        if not points:
            return None
        return max([end, closure(node)] + points)

    defs = []
    for node, begin, end in stmts:
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        d = Definition(node.name, begin, end, node)
        point = None
        if not isinstance(node, ast.ClassDef):
            point = executed(node, end, frozenset())
        d.ready = point if point is not None else max(end, closure(node))
        defs.append(d)
    return defs


def hint_key(h):
    p = h.get("position", {})
    label = h.get("label")
    if isinstance(label, list):
        label = "".join(part.get("value", "") for part in label)
    return (p.get("line"), p.get("character"), label)


def make_cuts(text, rng, mid_cuts):
    """Offsets after every newline and the end of the text, plus `mid_cuts`
    random offsets strictly inside non-blank lines (all of them when there
    are fewer)."""
    cuts, mid, positions = set(), set(), []
    offset = 0
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if len(line.strip()) >= 2:
            positions += range(offset + 1, offset + len(line))
        offset += len(line)
        if i + 1 < len(lines):
            offset += 1  # the newline
        cuts.add(offset)
    if mid_cuts > 0:
        mid = set(rng.sample(positions, min(mid_cuts, len(positions))))
    cuts |= mid
    cuts.discard(0)
    return sorted(cuts), mid


class FileResult:
    def __init__(self, path):
        self.path = path
        self.failures = []  # (kind, cut index, message)
        self.saved = {}
        self.lines = 0
        self.cuts = 0
        self.full_hints = 0
        self.checks = 0  # required (cut, hint) pairs
        self.max_hint_ms = 0.0
        self.max_diag_ms = 0.0


def save_failure(args, result, kind, index, prefix, message, stderr):
    n = result.saved.get(kind, 0)
    if n >= args.max_saved:
        return None
    result.saved[kind] = n + 1
    os.makedirs(args.failures_dir, exist_ok=True)
    base = os.path.splitext(os.path.basename(result.path))[0]
    where = "cut%d" % index if index >= 0 else "full"
    name = os.path.join(args.failures_dir, "%s.%s.%s.py" % (base, where, kind))
    with open(name, "w") as f:
        f.write(prefix)
    with open(name[:-3] + ".txt", "w") as f:
        f.write("file: %s\n%s at offset %d (%d lines)\n%s\n\nserver stderr:\n%s\n"
                % (result.path, "cut %d" % index if index >= 0 else "the full file",
                   len(prefix), prefix.count("\n"), message,
                   "\n".join(stderr[-200:])))
    return name


INTERNAL = re.compile(r"exception|mismatch|didChange", re.I)


def run_file(args, path, server_argv):
    result = FileResult(path)
    text = open(path, encoding="utf-8").read()
    result.lines = text.count("\n") + (0 if text.endswith("\n") else 1)
    rng = random.Random("%d:%s" % (args.seed, os.path.basename(path)))
    cuts, mid = make_cuts(text, rng, 0 if args.quick else args.mid_cuts)
    result.cuts = len(cuts)
    _, from_lsp = to_offsets(text)
    defs = required_points(text) or []
    uri = "file://" + os.path.abspath(path)
    whole = {"start": {"line": 0, "character": 0},
             "end": {"line": result.lines + 1, "character": 0}}

    def fail(kind, index, prefix, message):
        saved = save_failure(args, result, kind, index, prefix, message,
                             server.stderr_since(0))
        result.failures.append((kind, index, message + (" [saved %s]" % saved if saved else "")))

    server = Server(server_argv)
    stage = "initialize"
    try:
        server.request("initialize", {"processId": os.getpid(), "rootUri": None,
                                      "capabilities": {}}, args.timeout)
        server.notify("initialized", {})
        stage = "full-file hints"
        server.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "python", "version": 1, "text": text}})
        reply = server.request("textDocument/inlayHint",
                               {"textDocument": {"uri": uri}, "range": whole},
                               args.timeout)
        if "error" in reply:
            fail("error", len(cuts), text, "inlayHint error on the full file: %s"
                 % json.dumps(reply["error"]))
        full = reply.get("result") or []
        result.full_hints = len(full)
        if imports_tilelang(text):
            server.wait_diagnostics(uri, 1, args.timeout)
        server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})

        # Which full-file hints each cut requires.
        owned = []  # (ready offset, hint key)
        for h in full:
            key = hint_key(h)
            off = from_lsp(key[0], key[1])
            for d in defs:
                if d.begin <= off < d.end:
                    owned.append((d.ready, key))
                    break

        stage = "typing"
        version = 1
        server.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "python", "version": version, "text": ""}})
        current = ""
        stderr_seen = server.stderr_count()
        for index, cut in enumerate([0] + cuts):
            prefix = text[:cut]
            what = "cut %d (offset %d, line %d%s)" % (
                index, cut, prefix.count("\n") + 1, ", mid-line" if cut in mid else "")
            t0 = time.perf_counter()
            if cut:
                version += 1
                if args.full_text:
                    change = {"text": prefix}
                else:
                    pos = end_position(current)
                    change = {"range": {"start": pos, "end": pos}, "text": prefix[len(current):]}
                server.notify("textDocument/didChange", {
                    "textDocument": {"uri": uri, "version": version},
                    "contentChanges": [change]})
                current = prefix
            try:
                reply = server.request("textDocument/inlayHint",
                                       {"textDocument": {"uri": uri}, "range": whole},
                                       args.timeout)
                hint_ms = (time.perf_counter() - t0) * 1000
                result.max_hint_ms = max(result.max_hint_ms, hint_ms)
                if imports_tilelang(prefix):
                    server.wait_diagnostics(uri, version, args.timeout)
                    result.max_diag_ms = max(result.max_diag_ms,
                                             (time.perf_counter() - t0) * 1000)
            except Hang as e:
                fail("hang", index, prefix, "%s: %s (timeout %g s)" % (what, e, args.timeout))
                return result
            except ServerDied as e:
                fail("crash", index, prefix, "%s: %s" % (what, e))
                return result
            new_err = server.stderr_since(stderr_seen)
            stderr_seen += len(new_err)
            bad = [l for l in new_err if INTERNAL.search(l)]
            if bad:
                fail("internal", index, prefix, "%s: server logged: %s" % (what, " | ".join(bad[:3])))
            if "error" in reply:
                fail("error", index, prefix, "%s: inlayHint error %s" % (what, json.dumps(reply["error"])))
                continue
            hints = reply.get("result") or []
            stale = [h for h in hints if isinstance(h.get("data"), dict)
                     and h["data"].get("version", version) != version]
            if stale:
                fail("stale", index, prefix, "%s: %d hints of version %s, the document is at %d"
                     % (what, len(stale), stale[0]["data"]["version"], version))
            got = set(hint_key(h) for h in hints)
            required = [key for ready, key in owned if ready <= cut]
            result.checks += len(required)
            missing = [key for key in required if key not in got]
            if missing:
                fail("missing", index, prefix, "%s: %d of the required full-file hints missing, e.g. "
                     "line %d col %d %r" % (what, len(missing), missing[0][0] + 1, missing[0][1],
                                            missing[0][2]))
            if cut == len(text):
                final = sorted(hint_key(h) for h in reply.get("result") or [])
                expect = sorted(hint_key(h) for h in full)
                if final != expect:
                    extra = sorted(set(final) - set(expect))
                    lost = sorted(set(expect) - set(final))
                    fail("final", index, prefix,
                         "complete file typed incrementally: %d hints, full file: %d; "
                         "only typed: %s; only full: %s" % (len(final), len(expect),
                                                           extra[:3], lost[:3]))
            if args.verbose:
                print("  %s: %d hints, %d required, %.1f ms" % (what, len(got),
                      len(required), hint_ms))
    except Hang as e:
        fail("hang", -1, text, "%s: %s" % (stage, e))
    except ServerDied as e:
        fail("crash", -1, text, "%s: %s" % (stage, e))
    finally:
        server.stop()
    return result


def collect(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            for dirpath, dirnames, filenames in os.walk(p):
                dirnames.sort()
                files += [os.path.join(dirpath, f) for f in sorted(filenames) if f.endswith(".py")]
        elif os.path.isfile(p):
            files.append(p)
        else:
            print("typing_sim: no such file or folder: %s (skipped)" % p)
    return files


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--server", default=os.path.join(ROOT, "build/bin/tlc-lsp"))
    ap.add_argument("--server-arg", action="append", default=None,
                    help="argument for the server (repeatable; default --debounce-ms=0)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--quick", action="store_true", help="cut only at line ends")
    ap.add_argument("--mid-cuts", type=int, default=3,
                    help="random cuts inside lines per file (default 3)")
    ap.add_argument("--timeout", type=float, default=10.0, help="per request, seconds")
    ap.add_argument("--full-text", action="store_true",
                    help="send full-text changes instead of incremental ones")
    ap.add_argument("--failures-dir", default="/tmp/typing_sim_failures")
    ap.add_argument("--max-saved", type=int, default=3)
    ap.add_argument("-v", "--verbose", action="count", default=0)
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args()

    server_argv = [args.server] + (args.server_arg if args.server_arg is not None
                                   else ["--debounce-ms=0"])
    files = collect(args.paths)
    t0 = time.perf_counter()
    failed = 0
    total_cuts = 0
    for path in files:
        r = run_file(args, path, server_argv)
        total_cuts += r.cuts
        rel = os.path.relpath(path)
        print("%s %s: %d lines, %d cuts, %d hints (%d required at cuts), max latency"
              " %.0f ms (hints) %.0f ms (diagnostics)"
              % ("FAIL" if r.failures else "PASS", rel, r.lines, r.cuts, r.full_hints,
                 r.checks, r.max_hint_ms, r.max_diag_ms))
        for kind, index, message in r.failures[:10]:
            print("    %s: %s" % (kind, message))
        if len(r.failures) > 10:
            print("    ... %d more" % (len(r.failures) - 10))
        sys.stdout.flush()
        failed += bool(r.failures)
    print("%s: %d files, %d failed, %d cuts, %.1f s" % (
        "FAIL" if failed else "PASS", len(files), failed, total_cuts,
        time.perf_counter() - t0))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
