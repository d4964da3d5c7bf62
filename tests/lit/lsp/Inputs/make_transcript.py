"""Prints a --lit-test transcript that opens FILE as file:///FILE-NAME and
asks for every inlay hint, then for the hover at each LINE:COL given
(zero-based, UTF-16), then shuts down. Lets transcript tests run on the
repository's examples without copying them.

usage: make_transcript.py FILE [LINE:COL...]
"""
import json
import os
import sys

path = sys.argv[1]
text = open(path, encoding="utf-8").read()
uri = "file:///" + os.path.basename(path)
messages = [
    {"jsonrpc": "2.0", "id": 0, "method": "initialize",
     "params": {"capabilities": {}}},
    {"jsonrpc": "2.0", "method": "textDocument/didOpen",
     "params": {"textDocument": {"uri": uri, "languageId": "python",
                                 "version": 1, "text": text}}},
    {"jsonrpc": "2.0", "id": 1, "method": "textDocument/inlayHint",
     "params": {"textDocument": {"uri": uri},
                "range": {"start": {"line": 0, "character": 0},
                          "end": {"line": text.count("\n") + 1,
                                  "character": 0}}}},
]
for i, pos in enumerate(sys.argv[2:]):
    line, col = (int(x) for x in pos.split(":"))
    messages.append({"jsonrpc": "2.0", "id": 2 + i,
                     "method": "textDocument/hover",
                     "params": {"textDocument": {"uri": uri},
                                "position": {"line": line, "character": col}}})
messages.append({"jsonrpc": "2.0", "id": 99, "method": "shutdown"})
messages.append({"jsonrpc": "2.0", "method": "exit"})
print("\n// -----\n".join(json.dumps(m) for m in messages))
