"""``tilelang.backend.target``: the target helpers of
:mod:`tilelang.utils.target`, and the architecture tests scripts gate
tests on."""

from ..utils.target import (check_cuda_availability,  # noqa: F401
                            check_hip_availability, determine_target,
                            target_is_cuda, target_is_hip)


def _arch(target):
    """The architecture a target names (``gfx950`` of ``hip:gfx950`` or of
    a ``tvm.target.Target`` with ``-mcpu=gfx950``), or ""."""
    arch = getattr(target, "arch", None)
    if arch:
        return str(arch)
    text = str(target)
    if ":" in text:
        return text.split(":", 1)[1].split(",")[0].strip()
    for word in text.replace("=", " ").split():
        if word.startswith(("gfx", "sm_")):
            return word
    return ""


def target_is_gfx950(target):
    """Whether ``target`` is a ROCm target for gfx950 (MI350 / MI355X)."""
    return target_is_hip(target) and _arch(target).startswith("gfx950")
