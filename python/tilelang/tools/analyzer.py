"""``tilelang.tools.Analyzer``: the work a kernel does, counted statically.

``Analyzer.analysis(func, device)`` counts, over the Tile IR tlc builds for
the prim_func (``tlc-build --emit=tile``, the instance ``tilelang.compile``
would build):

* ``total_flops``: 2 * M * N * K for every ``T.gemm`` (C [M, N] += A B with
  reduction extent K), times the trip counts of the loops around it and the
  number of blocks of its ``T.Kernel``;
* ``total_global_bytes``: the bytes of global memory that ``T.copy`` /
  ``T.atomic_add`` tile operations read or write and that element loads and
  stores of global tensors touch, counted the same way.

A loop counts its full trip count and both branches of a condition count,
so both figures are upper bounds where control flow skips work. With a
``device`` that knows its peak figures (``peak_tflops``,
``bandwidth_GBps``), ``estimated_time`` (seconds) is the larger of the
compute and the memory time, else None.
"""

import math
import re

_TYPE = re.compile(r"!tile\.buffer<\[([^\]]*)\],\s*([A-Za-z0-9]+),\s*([\w.]+)>")
_CONST = re.compile(r"^(%[\w.]+) = arith\.constant (-?\d+)\b")
_LOOP = re.compile(r"= (%[\w.]+|-?\d+) to (%[\w.]+|-?\d+)"
                   r"(?: step (%[\w.]+|-?\d+))?")


class AnalysisResult:
    """What :meth:`Analyzer.analysis` found (see the module's text)."""

    def __init__(self, total_flops, total_global_bytes, estimated_time=None):
        self.total_flops = total_flops
        self.total_global_bytes = total_global_bytes
        self.estimated_time = estimated_time
        self.expected_tflops = total_flops / estimated_time / 1e12 \
            if estimated_time else None
        self.expected_bandwidth_GBps = \
            total_global_bytes / estimated_time / 1e9 if estimated_time else None

    def __repr__(self):
        return (f"AnalysisResult(total_flops={self.total_flops}, "
                f"total_global_bytes={self.total_global_bytes}, "
                f"estimated_time={self.estimated_time})")


def _element_bytes(name):
    digits = re.search(r"\d+", name)
    bits = int(digits.group()) if digits else 32
    return max(1, bits // 8)


def _buffers(line):
    """(shape, element type, scope) of each buffer type on the line."""
    result = []
    for dims, elem, scope in _TYPE.findall(line):
        shape = []
        for d in dims.split(","):
            d = d.strip()
            if not re.fullmatch(r"-?\d+", d):
                raise ValueError(
                    f"Analyzer: a buffer of symbolic shape [{dims}]; the "
                    "analysis needs static shapes")
            shape.append(int(d))
        result.append((shape, elem, scope))
    return result


def count(tile_ir):
    """(total FLOPs, global bytes) of Tile IR text (see the module's text)."""
    consts = {}
    stack = [1]
    flops = 0
    global_bytes = 0

    def value(token):
        if re.fullmatch(r"-?\d+", token):
            return int(token)
        if token not in consts:
            raise ValueError(f"Analyzer: a symbolic loop or grid extent "
                             f"({token}); the analysis needs static ones")
        return consts[token]

    for raw in tile_ir.splitlines():
        line = raw.strip()
        m = _CONST.match(line)
        if m:
            consts[m.group(1)] = int(m.group(2))
            continue
        if line.startswith("}"):
            stack.pop()
            if line.endswith("{"):  # } else {
                stack.append(stack[-1])
            continue
        factor = stack[-1]
        if line.startswith("tile.kernel"):
            grid = re.search(r"grid \[([^\]]*)\]", line)
            blocks = math.prod(value(t.strip()) for t in
                               grid.group(1).split(",")) if grid else 1
            stack.append(factor * blocks)
            continue
        if line.startswith(("tile.for", "tile.pipelined")):
            m = _LOOP.search(line)
            lo, hi = value(m.group(1)), value(m.group(2))
            step = value(m.group(3)) if m.group(3) else 1
            stack.append(factor * max(0, -(-(hi - lo) // step)))
            continue
        if line.startswith("tile.parallel"):
            ext = re.search(r" in \[([^\]]*)\]", line)
            stack.append(factor * math.prod(
                value(t.strip()) for t in ext.group(1).split(",")))
            continue
        if line.startswith("tile.gemm"):
            (a, _, _), _, (c, _, _) = _buffers(line)[:3]
            attrs = re.search(r"\{([^}]*)\}", line.split(" : ")[0])
            trans_a = attrs is not None and "transpose_a" in attrs.group(1)
            k = a[-2] if trans_a else a[-1]
            flops += 2 * c[-2] * c[-1] * k * factor
        elif line.startswith(("tile.copy", "tile.atomic_add")):
            for shape, elem, scope in _buffers(line.split(" : ", 1)[-1]):
                if scope == "global":
                    global_bytes += math.prod(shape) * _element_bytes(elem) \
                        * factor
        elif line.startswith(("tile.load", "tile.store")) or \
                re.match(r"^%[\w.]+ = tile\.load ", line):
            for _, elem, scope in _buffers(line):
                if scope == "global":
                    global_bytes += _element_bytes(elem) * factor
        if line.endswith("{"):
            stack.append(factor)
    return flops, global_bytes


class Analyzer:
    """``Analyzer.analysis(func, device)``; see the module's text."""

    @staticmethod
    def analysis(func, device=None):
        from .._build import emit_tile
        from .._jit import prim_func_build_inputs
        build_file, kernel, defines = prim_func_build_inputs(func)
        text = emit_tile(build_file, kernel, defines, "cpu", texts=True)
        flops, nbytes = count(text)
        peak = getattr(device, "peak_tflops", None)
        bandwidth = getattr(device, "bandwidth_GBps", None)
        time = None
        if peak and bandwidth:
            time = max(flops / (peak * 1e12), nbytes / (bandwidth * 1e9))
        return AnalysisResult(flops, nbytes, time)
