"""``tilelang.cuda.target``: TileLang's CUDA target helpers that scripts
import (``normalize_cutedsl_target``, ``target_is_hopper``,
``target_has_bulk_copy``, ...). The architecture tests read the target's
``sm_XY`` (a ``tvm.target.Target``, a ``{"kind": "cuda", "arch": ...}``
dict or a ``cuda:sm_90a`` / ``cuda -arch=sm_90`` text); a target that is
not CUDA's is none of them. tlc has no CuTeDSL back end."""

import re

from ..utils.target import check_cuda_availability  # noqa: F401
from ..utils.target import target_is_cuda as _is_cuda


def _kind_and_arch(target):
    if isinstance(target, dict):
        return str(target.get("kind", "")), str(target.get("arch", ""))
    kind = getattr(target, "kind", None)
    if kind is not None:
        return str(getattr(kind, "name", kind)), \
            str(getattr(target, "arch", "") or "")
    text = str(target).strip()
    kind = re.split(r"[:\s]", text, maxsplit=1)[0]
    m = re.search(r"sm_\d+[af]?", text)
    return kind, m.group(0) if m else ""


def _sm(target):
    """The compute capability number of a CUDA target (90 of sm_90a), or
    None (another kind, or no arch)."""
    kind, arch = _kind_and_arch(target)
    if kind != "cuda":
        return None
    m = re.fullmatch(r"sm_(\d+)[af]?", arch)
    return int(m.group(1)) if m else None


def _between(target, low, high):
    sm = _sm(target)
    return sm is not None and low <= sm < high


def target_is_cuda(target):
    return _is_cuda(target if not isinstance(target, dict)
                    else target.get("kind", ""))


def target_is_volta(target):
    return _between(target, 70, 75)


def target_is_turing(target):
    return _between(target, 75, 80)


def target_is_ampere(target):
    return _between(target, 80, 90)


def target_is_hopper(target):
    return _between(target, 90, 100)


def target_is_sm120(target):
    return _between(target, 120, 130)


def target_has_async_copy(target):
    """cp.async: sm_80 and later."""
    return _between(target, 80, 1 << 30)


def target_has_ldmatrix(target):
    """ldmatrix: sm_75 and later."""
    return _between(target, 75, 1 << 30)


def target_has_stmatrix(target, is_m16n8=False):
    """stmatrix: sm_90 and later (its m16n8 shapes: sm_100 and later)."""
    return _between(target, 100 if is_m16n8 else 90, 1 << 30)


def target_has_bulk_copy(target):
    """TMA (cp.async.bulk): sm_90 and later."""
    return _between(target, 90, 1 << 30)


def normalize_cuda_target(target):
    """``"cuda"`` with a CUDA device: the device's target
    (``cuda:sm_90a``); any other spelling, or no device: None."""
    if not isinstance(target, str) or target.strip() != "cuda" or \
            not check_cuda_availability():
        return None
    from .._jit import resolve_target
    return resolve_target("cuda")


def normalize_cutedsl_target(target):
    """TileLang's CuTeDSL target. tlc has no CuTeDSL back end: None, as
    TileLang returns for a target that is not a CuTeDSL one, so scripts
    take their no-CuTeDSL path."""
    return None
