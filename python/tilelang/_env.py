"""Environment switches shared by the package's modules."""

import os

_cache_enabled = [True]


def cache_disabled():
    """True when builds must not use or fill the cache
    (``tilelang.disable_cache()`` or ``TILELANG_DISABLE_CACHE=1``)."""
    env = os.environ.get("TILELANG_DISABLE_CACHE", "")
    return not _cache_enabled[0] or env.lower() in ("1", "true", "yes", "on")


def set_cache_enabled(on):
    _cache_enabled[0] = bool(on)


def verbose():
    """``TILELANG_VERBOSE=1`` / ``TLC_VERBOSE=1``: echo tlc-build's log."""
    for name in ("TILELANG_VERBOSE", "TLC_VERBOSE"):
        if os.environ.get(name, "").lower() in ("1", "true", "yes", "on"):
            return True
    return False
