"""``ast.parse`` under one lock for the package's threads.

CPython 3.11 keeps the recursion depth of its AST-object constructor in
interpreter-wide state: two threads building AST objects at once (a
thread switch inside ``ast.parse``, e.g. from a garbage-collector
callback) make it raise ``SystemError: AST constructor recursion depth
mismatch`` (python/cpython#106905). The tuner's parallel configuration
builds and the batch builds read kernel sources in threads, so every
``ast.parse`` of the package goes through :func:`parse`."""

import ast
import threading

_LOCK = threading.RLock()


def parse(source, *args, **kwargs):
    """``ast.parse(source, ...)``, one call at a time."""
    with _LOCK:
        return ast.parse(source, *args, **kwargs)
