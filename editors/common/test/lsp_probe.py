#!/usr/bin/python3
# lsp_probe.py - asks tlc-lsp, over plain stdio JSON-RPC, what an editor
# should show for one file: the inlay hints, the generated source at one
# position (or the server's error), and where the generated range maps back.
#
# Part of the tlc project.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# The editor tests (editors/vscode/test, editors/nvim/test) compare what the
# editor renders with this independent client's view of the same server, so
# the plugins are tested on their own work (rendering, opening, jumping) and
# not on the server's wording.
#
# usage: lsp_probe.py FILE.py LINE CHARACTER [--exchange FILE2.py BUFFER]
#                     -- SERVER [server args...]
# prints one JSON object: {hints: {line: [label...]}, generated: {...} |
# null, generatedError: str | null, original: {...} | null, tile: {...} |
# null, tileError: str | null}  (tile: the same request with target "tile");
# with --exchange also exchange: the `exchanges` of tilelang/layout for
# BUFFER of FILE2.py (each tile's `bank` array left out), or null.

import json
import os
import subprocess
import sys
import threading
import time


class Client:
    def __init__(self, argv):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)
        self.next_id = 0
        self.replies = {}
        self.cond = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.decode('ascii').partition(':')
                if name.lower() == 'content-length':
                    length = int(value)
            message = json.loads(out.read(length))
            if 'id' in message and 'method' in message:
                # A request from the server: answer like a plain editor.
                self._send({'jsonrpc': '2.0', 'id': message['id'],
                            'result': None})
                continue
            if 'id' in message:
                with self.cond:
                    self.replies[message['id']] = message
                    self.cond.notify_all()

    def _send(self, message):
        body = json.dumps(message).encode('utf-8')
        self.proc.stdin.write(b'Content-Length: %d\r\n\r\n' % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method, params):
        self._send({'jsonrpc': '2.0', 'method': method, 'params': params})

    def request(self, method, params, timeout=30.0):
        self.next_id += 1
        rid = self.next_id
        self._send({'jsonrpc': '2.0', 'id': rid, 'method': method,
                    'params': params})
        deadline = time.time() + timeout
        with self.cond:
            while rid not in self.replies:
                left = deadline - time.time()
                if left <= 0:
                    raise TimeoutError(method)
                self.cond.wait(left)
            return self.replies.pop(rid)


def label_text(label):
    if isinstance(label, str):
        return label
    return ''.join(part.get('value', '') for part in label)


def probe_exchange(client, path, buffer):
    """The exchanges of `buffer` in the file at `path`, without banks."""
    uri = 'file://' + path
    with open(path, encoding='utf-8') as f:
        text = f.read()
    client.notify('textDocument/didOpen', {'textDocument': {
        'uri': uri, 'languageId': 'python', 'version': 1, 'text': text}})
    reply = client.request('tilelang/layout', {
        'textDocument': {'uri': uri}, 'buffer': buffer})
    exchanges = (reply.get('result') or {}).get('exchanges')
    if exchanges is None:
        return None
    for x in exchanges:
        x.pop('bank', None)
    return exchanges


def main():
    argv = sys.argv[1:]
    server = argv[argv.index('--') + 1:]
    argv = argv[:argv.index('--')]
    path, line, character = argv[0], int(argv[1]), int(argv[2])
    exchange = None
    if '--exchange' in argv:
        at = argv.index('--exchange')
        exchange = (os.path.abspath(argv[at + 1]), argv[at + 2])
    path = os.path.abspath(path)
    uri = 'file://' + path
    with open(path, encoding='utf-8') as f:
        text = f.read()
    client = Client(server)
    client.request('initialize', {
        'processId': os.getpid(),
        'rootUri': None,
        'capabilities': {'general': {'positionEncodings': ['utf-16']}},
    })
    client.notify('initialized', {})
    client.notify('textDocument/didOpen', {'textDocument': {
        'uri': uri, 'languageId': 'python', 'version': 1, 'text': text}})
    reply = client.request('textDocument/inlayHint', {
        'textDocument': {'uri': uri},
        'range': {'start': {'line': 0, 'character': 0},
                  'end': {'line': text.count('\n') + 1, 'character': 0}}})
    hints = {}
    for hint in reply.get('result') or []:
        hints.setdefault(str(hint['position']['line']), []).append(
            label_text(hint['label']))
    result = {'hints': hints, 'generated': None, 'generatedError': None,
              'original': None}
    reply = client.request('tilelang/generatedSource', {
        'textDocument': {'uri': uri},
        'position': {'line': line, 'character': character}})
    if 'error' in reply:
        result['generatedError'] = reply['error'].get('message', '')
    else:
        generated = reply.get('result')
        result['generated'] = generated
        if generated:
            back = client.request('tilelang/originalSource', {
                'textDocument': {'uri': generated['uri']},
                'position': generated['range']['start']})
            result['original'] = back.get('result')
            if 'error' in back:
                result['originalError'] = back['error'].get('message', '')
    # The Tile IR view: generatedSource with target "tile".
    reply = client.request('tilelang/generatedSource', {
        'textDocument': {'uri': uri},
        'position': {'line': line, 'character': character},
        'target': 'tile'})
    result['tile'] = reply.get('result')
    result['tileError'] = reply.get('error', {}).get('message')
    if exchange:
        result['exchange'] = probe_exchange(client, *exchange)
    client.request('shutdown', None)
    client.notify('exit', None)
    try:
        client.proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        client.proc.kill()
    json.dump(result, sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write('\n')


if __name__ == '__main__':
    main()
