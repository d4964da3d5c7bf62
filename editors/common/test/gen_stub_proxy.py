#!/usr/bin/python3
# gen_stub_proxy.py - tlc-lsp with a stub back end, for the editor tests.
#
# Part of the tlc project.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# Runs the real tlc-lsp and relays every message both ways, except
# `tilelang/generatedSource` and `tilelang/originalSource`, which it answers
# from a stub "generated" file: for a DSL file of N lines it writes
# STUB_DIR/<name>.cu where DSL line L (0-based) generated lines 3L+2 .. 3L+4
# (`// dsl line L+1: <text>` and two statements). The editor tests use it
# to check the plugins' side of the jump (open beside, at the mapped line,
# highlighted, and back) while the real back end cannot answer yet; the
# answers have exactly the shape of the protocol (uri, language, range).
#
# usage: gen_stub_proxy.py STUB_DIR TLC_LSP [server args...]

import json
import os
import subprocess
import sys
import threading
import urllib.parse
import urllib.request

stub_dir = os.path.abspath(sys.argv[1])
server = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE)
out_lock = threading.Lock()
texts = {}  # uri -> text of open DSL documents


def read_message(stream):
    length = None
    while True:
        line = stream.readline()
        if not line:
            return None
        line = line.strip()
        if not line:
            break
        name, _, value = line.decode('ascii').partition(':')
        if name.lower() == 'content-length':
            length = int(value)
    return stream.read(length)


def write_message(stream, body, lock=None):
    data = b'Content-Length: %d\r\n\r\n' % len(body) + body
    if lock:
        with lock:
            stream.write(data)
            stream.flush()
    else:
        stream.write(data)
        stream.flush()


def to_client(message):
    write_message(sys.stdout.buffer, json.dumps(message).encode('utf-8'),
                  out_lock)


def stub_path(uri):
    name = os.path.basename(urllib.parse.urlparse(uri).path)
    return os.path.join(stub_dir, os.path.splitext(name)[0] + '.cu')


def write_stub(uri):
    text = texts.get(uri, '')
    lines = ['// stub back end of gen_stub_proxy.py: generated from',
             '// ' + urllib.parse.unquote(urllib.parse.urlparse(uri).path)]
    for number, dsl in enumerate(text.split('\n')):
        lines.append('// dsl line %d: %s' % (number + 1, dsl.strip()))
        lines.append('  stub_statement_%d_a();' % (number + 1))
        lines.append('  stub_statement_%d_b();' % (number + 1))
    os.makedirs(stub_dir, exist_ok=True)
    path = stub_path(uri)
    with open(path, 'w', encoding='utf-8') as f:
        f.write('\n'.join(lines) + '\n')
    return 'file://' + urllib.request.pathname2url(path)


def answer(message):
    method, params = message['method'], message.get('params') or {}
    uri = params.get('textDocument', {}).get('uri', '')
    line = params.get('position', {}).get('line', 0)
    if method == 'tilelang/generatedSource':
        if uri not in texts:
            return to_client({'jsonrpc': '2.0', 'id': message['id'], 'error': {
                'code': -32602, 'message': 'document not open: ' + uri}})
        gen_uri = write_stub(uri)
        first = 2 + 3 * line
        result = {'uri': gen_uri, 'language': 'cuda',
                  'range': {'start': {'line': first, 'character': 0},
                            'end': {'line': first + 2, 'character': 24}}}
        return to_client({'jsonrpc': '2.0', 'id': message['id'],
                          'result': result})
    # tilelang/originalSource: find the DSL document whose stub this is.
    for dsl_uri in texts:
        if os.path.abspath(urllib.request.url2pathname(
                urllib.parse.urlparse(uri).path)) == stub_path(dsl_uri):
            dsl_line = max(line - 2, 0) // 3
            result = {'uri': dsl_uri,
                      'range': {'start': {'line': dsl_line, 'character': 0},
                                'end': {'line': dsl_line, 'character': 0}}}
            return to_client({'jsonrpc': '2.0', 'id': message['id'],
                              'result': result})
    to_client({'jsonrpc': '2.0', 'id': message['id'], 'error': {
        'code': -32803, 'message': 'stub: not a generated file: ' + uri}})


def track(message):
    method, params = message.get('method'), message.get('params') or {}
    doc = params.get('textDocument', {})
    if method == 'textDocument/didOpen':
        texts[doc['uri']] = doc['text']
    elif method == 'textDocument/didClose':
        texts.pop(doc.get('uri'), None)
    elif method == 'textDocument/didChange':
        for change in params.get('contentChanges', []):
            if 'range' not in change:
                texts[doc['uri']] = change['text']
            # Incremental edits: the stub keeps the opening text; only the
            # line numbers matter to the tests.


def from_server():
    while True:
        body = read_message(server.stdout)
        if body is None:
            break
        write_message(sys.stdout.buffer, body, out_lock)


threading.Thread(target=from_server, daemon=True).start()
while True:
    body = read_message(sys.stdin.buffer)
    if body is None:
        break
    message = json.loads(body)
    if message.get('method') in ('tilelang/generatedSource',
                                 'tilelang/originalSource') and 'id' in message:
        answer(message)
        continue
    track(message)
    write_message(server.stdin, body)
server.stdin.close()
server.wait()
