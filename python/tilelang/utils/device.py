"""``tilelang.utils.device``: which device torch work of a script runs on.

``IS_CUDA`` / ``IS_MPS`` say what torch has (CUDA, or ROCm's HIP through
torch's CUDA API, before Apple's Metal); ``Event`` is that device's timing
event class (None on a host without either), ``get_current_device()`` its
current device (a CUDA index, ``"mps:0"``, or None) and
``device_synchronize(device=None)`` waits for its work.

The file imports nothing of the package, so it can be run on its own
(``runpy.run_path``) to recompute the flags.
"""

import torch

IS_CUDA = torch.cuda.is_available()
_mps = getattr(torch.backends, "mps", None)
IS_MPS = bool(_mps is not None and _mps.is_available())

if IS_CUDA:
    Event = torch.cuda.Event
elif IS_MPS:
    Event = torch.mps.Event
else:
    Event = None


def get_current_device():
    """The device torch work goes to: the current CUDA device's index,
    ``"mps:0"``, or None on a host with neither."""
    if IS_CUDA:
        return torch.cuda.current_device()
    if IS_MPS:
        return "mps:0"
    return None


def _backend_of(device):
    """``"cuda"`` or ``"mps"`` for an explicit device (an index, a string
    or a ``torch.device``); ValueError for any other kind."""
    if isinstance(device, int) and not isinstance(device, bool):
        return "cuda"
    kind = torch.device(device).type if isinstance(device, str) else \
        getattr(device, "type", None)
    if kind in ("cuda", "mps"):
        return kind
    raise ValueError(f"device_synchronize only supports CUDA/HIP or MPS "
                     f"devices, got {device!r}")


def device_synchronize(device=None):
    """Waits for the work queued on ``device`` (default: the current
    device of the available backend). RuntimeError where there is none;
    ValueError for a device that is neither CUDA/HIP nor MPS."""
    if device is None:
        if IS_CUDA:
            return torch.cuda.synchronize()
        if IS_MPS:
            return torch.mps.synchronize()
        raise RuntimeError("No device is available to synchronize "
                           "(neither CUDA/HIP nor MPS)")
    if _backend_of(device) == "cuda":
        return torch.cuda.synchronize(device)
    return torch.mps.synchronize()
