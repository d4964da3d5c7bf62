"""``JITKernel.get_host_source()``: the host-side launcher of a kernel as C++.

tlc-build writes the device code (``NAME.cu`` / ``NAME.cpp``) and a manifest
(``NAME.json``: parameters, symbols, launches with grid, block, shared
memory, TMA tensor maps and workspaces). The package launches from the
manifest through ctypes; this module writes the same launch as one C++
function a host program can compile and call instead, the way TileLang's
host source is the wrapper that launches its device kernels:

* CUDA: ``int NAME_launch(tlc_cuda_context *, tlc_cuda_kernel *const *,
  <parameters>, <workspaces>, <symbols>, void *stream)`` over
  ``runtime/cuda/include/tlc_cuda.h`` (the kernels are those of the
  artifact's cubin, one per launch, in manifest order). Grid, block and
  shared memory sizes that depend on symbols are computed from them; TMA
  tensor maps are encoded over the call's tensors before each launch.
* HIP: ``int NAME_launch(tlc_hip_kernel *, <parameters>, <workspaces>,
  <symbols>, void *stream)`` over ``runtime/hip/include/tlc_hip.h``. Its
  C API launches an instance's kernels from the manifest itself (grid,
  block and LDS computed from the symbols, in manifest order), so the
  launcher passes the arguments in manifest order to
  ``tlc_hip_kernel_launch``; each launch's grid, block and LDS bytes are
  written in a comment as C++ expressions of the symbols.
* CPU: ``int NAME_launch(<parameters>, <symbols>, int num_workers, char
  *error, size_t error_size)`` filling ``tlc_cpu_args`` for the entry point
  of ``NAME.so`` (``tlc_device/cpu.h``, copied next to the artifact).

Tensors are passed as data pointers (device addresses on CUDA) of dense
row-major storage; 16-bit float scalars as their bit patterns, as the
kernels take them.
"""

import ast
import re

from . import _ast_parse

_SCALAR_C = {
    "bool": "bool", "int8": "int8_t", "int16": "int16_t",
    "int32": "int32_t", "int64": "int64_t", "uint8": "uint8_t",
    "uint16": "uint16_t", "uint32": "uint32_t", "uint64": "uint64_t",
    "float16": "uint16_t", "bfloat16": "uint16_t", "float32": "float",
    "float64": "double", "handle": "uint64_t",
}

_HELPERS = """\
// Python's integer semantics for the sizes (floor division, ceildiv).
static inline long long tlc_floordiv(long long a, long long b) {
  long long q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
static inline long long tlc_floormod(long long a, long long b) {
  return a - tlc_floordiv(a, b) * b;
}
static inline long long tlc_ceildiv(long long a, long long b) {
  return -tlc_floordiv(-a, b);
}
static inline long long tlc_min(long long a, long long b) { return a < b ? a : b; }
static inline long long tlc_max(long long a, long long b) { return a > b ? a : b; }
"""

_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*"}
_CALLS = {"ceildiv": "tlc_ceildiv", "min": "tlc_min", "max": "tlc_max"}


def _ident(name):
    """A C identifier for manifest name ``name``."""
    text = re.sub(r"\W", "_", str(name))
    return text if text and not text[0].isdigit() else "_" + text


def c_extent(expr, symbols):
    """C++ text of a manifest extent (an int, or a Python expression over
    the symbols such as ``ceildiv(m, 128)``); ``symbols`` maps manifest
    symbol names to C names."""
    if isinstance(expr, bool):
        return str(int(expr))
    if isinstance(expr, int):
        return f"{expr}LL"

    def emit(node):
        if isinstance(node, ast.Expression):
            return emit(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return f"{int(node.value)}LL"
        if isinstance(node, ast.Name):
            if node.id not in symbols:
                raise ValueError(f"extent '{expr}' uses '{node.id}', which "
                                 "is not a symbol of the kernel")
            return symbols[node.id]
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return f"(-{emit(node.operand)})"
        if isinstance(node, ast.BinOp):
            a, b = emit(node.left), emit(node.right)
            if type(node.op) in _BINOPS:
                return f"({a} {_BINOPS[type(node.op)]} {b})"
            if isinstance(node.op, ast.FloorDiv):
                return f"tlc_floordiv({a}, {b})"
            if isinstance(node.op, ast.Mod):
                return f"tlc_floormod({a}, {b})"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in _CALLS and not node.keywords:
            args = [emit(a) for a in node.args]
            if len(args) == 2:
                return f"{_CALLS[node.func.id]}({args[0]}, {args[1]})"
        raise ValueError(f"extent '{expr}': cannot write "
                         f"'{ast.dump(node)}' as C++")
    return emit(_ast_parse.parse(str(expr), mode="eval"))


def _signature_params(manifest, cuda, symbols):
    params = []
    for p in manifest.get("params", []):
        name = _ident(p["name"])
        if p["kind"] == "tensor":
            shape = ", ".join(str(e) for e in p.get("shape", []))
            strides = ", ".join(str(e) for e in p.get("strides", []))
            params.append((f"void *{name}",
                           f"{p['dtype']}[{shape}]" +
                           (f" strides [{strides}]" if strides else "") +
                           f" ({p.get('role', 'in')})"))
        else:
            ctype = _SCALAR_C.get(p["dtype"])
            if ctype is None:
                raise ValueError(f"scalar parameter '{p['name']}' has dtype "
                                 f"{p['dtype']}, which has no C type here")
            note = "bits of the value" if p["dtype"] in ("float16",
                                                         "bfloat16") else ""
            params.append((f"{ctype} {name}",
                           f"scalar {p['dtype']}" +
                           (f" ({note})" if note else "")))
    if cuda:
        for w in manifest.get("workspaces", []):
            params.append((f"void *{_ident(w['name'])}",
                           f"workspace of {w['bytes']} bytes"))
    for s in manifest.get("symbols", []):
        params.append((f"long long {symbols[s['name']]}",
                       f"symbol {s['name']}"))
    return params


def _format_signature(ret_name, params):
    lines = [f"extern \"C\" int {ret_name}("]
    for i, (decl, note) in enumerate(params):
        sep = "," if i + 1 < len(params) else ") {"
        lines.append(f"    {decl}{sep}  // {note}")
    if not params:
        lines[-1] += ") {"
    return lines


def _cpu(manifest, name, symbols):
    params = _signature_params(manifest, False, symbols)
    symbols = [symbols[s["name"]] for s in manifest.get("symbols", [])]
    params += [("int num_workers", "host threads (<= 1: in sequence)"),
               ("char *error", "receives the message of a failure"),
               ("size_t error_size", "capacity of error")]
    entry = manifest["entry"]
    out = [f"// Host launcher of tlc kernel '{manifest['name']}' "
           f"(target cpu), written from {name}.json.",
           f"// Build: c++ -std=c++17 -shared -fPIC {name}_host.cpp "
           f"{manifest['binary']} -o {name}_host.so",
           "#include <cstddef>",
           "#include <cstdint>",
           "#include \"tlc_cpu.h\"",
           "",
           f"extern \"C\" int {entry}(const tlc_cpu_args *args);",
           ""]
    out += _format_signature(f"{_ident(manifest['name'])}_launch", params)
    values = []
    for p in manifest.get("params", []):
        n = _ident(p["name"])
        values.append(n if p["kind"] == "tensor" else f"&{n}")
    out.append(f"  void *params[] = {{{', '.join(values) or 'nullptr'}}};")
    out.append(f"  const int64_t symbols[] = "
               f"{{{', '.join(symbols) or '0'}}};")
    out.append("  tlc_cpu_args args = {TLC_CPU_ABI_VERSION, "
               f"{len(values)}, params, {len(symbols)}, symbols, "
               "num_workers, error, error_size};")
    out.append(f"  return {entry}(&args);")
    out.append("}")
    return "\n".join(out) + "\n"


def _cuda(manifest, name, symbols):
    sym_names = [s["name"] for s in manifest.get("symbols", [])]
    params = [("tlc_cuda_context *context", "tlc_cuda_context_create"),
              ("tlc_cuda_kernel *const *kernels",
               f"{len(manifest.get('launches', []))} kernel(s) of "
               f"{manifest['binary']}, in launch order")]
    params += _signature_params(manifest, True, symbols)
    params.append(("void *stream", "CUstream (null: the default stream)"))
    out = [f"// Host launcher of tlc kernel '{manifest['name']}' "
           f"(target {manifest.get('target', 'cuda')}), written from "
           f"{name}.json.",
           "// Build: c++ -std=c++17 -c -I<tlc>/runtime/cuda/include "
           f"{name}_host.cpp; link with libtlc_cuda.so.",
           "#include <cstdint>",
           "#include \"tlc_cuda.h\"",
           "",
           _HELPERS]
    out += _format_signature(f"{_ident(manifest['name'])}_launch", params)
    out.append("  (void)context;")
    tensors = {p["name"] for p in manifest.get("params", [])
               if p["kind"] == "tensor"}
    for p in manifest.get("params", []):
        n = _ident(p["name"])
        if p["kind"] == "tensor":
            out.append(f"  uint64_t arg_{n} = (uint64_t){n};")
    for w in manifest.get("workspaces", []):
        n = _ident(w["name"])
        out.append(f"  uint64_t ws_{n} = (uint64_t){n};")
    for s in sym_names:
        out.append(f"  long long sym_{symbols[s]} = {symbols[s]};")
    for li, launch in enumerate(manifest.get("launches", [])):
        entry = launch.get("entry", manifest["entry"])
        where = f" ({launch['location']})" if launch.get("location") else ""
        out.append(f"  {{  // launch {li}: {entry}{where}")
        args = []
        for p in manifest.get("params", []):
            n = _ident(p["name"])
            args.append(f"&arg_{n}" if p["name"] in tensors else f"&{n}")
        args += [f"&ws_{_ident(w)}" for w in launch.get("workspaces", [])]
        args += [f"&sym_{symbols[s]}" for s in sym_names]
        for ti, tm in enumerate(launch.get("tensor_maps", [])):
            rank = len(tm["dims"])
            dims = ", ".join(f"(uint64_t){c_extent(d, symbols)}"
                             for d in tm["dims"])
            strides = ", ".join(f"(uint64_t){c_extent(d, symbols)}"
                                for d in tm["strides"]) or "0"
            box = ", ".join(f"{int(b)}u" for b in tm["box"])
            l2 = {"none": 0, "64B": 64, "128B": 128, "256B": 256}[
                tm.get("l2_promotion", "128B")]
            t = f"tmap{ti}"
            out += [f"    alignas(64) unsigned char {t}[128];",
                    f"    {{  // TMA map of {tm['param']}",
                    f"      const uint64_t dims[{rank}] = {{{dims}}};",
                    f"      const uint64_t strides[{max(1, rank - 1)}] = "
                    f"{{{strides}}};",
                    f"      const unsigned box[{rank}] = {{{box}}};",
                    "      if (int rc = tlc_cuda_tensor_map_encode(context, "
                    f"\"{tm['dtype']}\", {rank}, "
                    f"arg_{_ident(tm['param'])}, dims, strides, box, "
                    f"{int(tm.get('swizzle', 0))}, {l2}, {t}))",
                    "        return rc;",
                    "    }"]
            args.append(t)
        grid = [c_extent(g, symbols) for g in launch["grid"]]
        block = [c_extent(b, symbols) for b in launch["block"]]
        grid += ["1LL"] * (3 - len(grid))
        block += ["1LL"] * (3 - len(block))
        shared = c_extent(launch.get("dynamic_shared_memory", 0), symbols)
        out += [f"    const long long grid_ll[3] = {{{', '.join(grid)}}};",
                "    if (grid_ll[0] > 0 && grid_ll[1] > 0 && grid_ll[2] > 0) "
                "{  // an empty grid launches nothing",
                "      const unsigned grid[3] = {(unsigned)grid_ll[0], "
                "(unsigned)grid_ll[1], (unsigned)grid_ll[2]};",
                "      const unsigned block[3] = {" +
                ", ".join(f"(unsigned){b}" for b in block) + "};",
                f"      void *args[] = {{{', '.join(args) or 'nullptr'}}};",
                f"      if (int rc = tlc_cuda_kernel_launch_flags(kernels[{li}], "
                f"grid, block, (unsigned){shared}, stream, args, "
                f"{'TLC_CUDA_LAUNCH_COOPERATIVE' if launch.get('cooperative') else '0'}))",
                "        return rc;",
                "    }",
                "  }"]
    out.append("  return 0;")
    out.append("}")
    return "\n".join(out) + "\n"


def _hip(manifest, name, symbols):
    sym_names = [s["name"] for s in manifest.get("symbols", [])]
    params = [("tlc_hip_kernel *kernel",
               f"tlc_hip_module_get_kernel of {name}.json's module")]
    params += _signature_params(manifest, True, symbols)
    params.append(("void *stream", "hipStream_t (null: the default stream)"))
    out = [f"// Host launcher of tlc kernel '{manifest['name']}' "
           f"(target {manifest.get('target', 'hip')}), written from "
           f"{name}.json.",
           "// Build: c++ -std=c++17 -c -I<tlc>/runtime/hip/include "
           f"{name}_host.cpp; link with libtlc_hip.so.",
           "// tlc_hip_kernel_launch launches the instance's kernels in "
           "manifest order:"]
    for li, launch in enumerate(manifest.get("launches", [])):
        entry = launch.get("entry", manifest["entry"])
        grid = [c_extent(g, symbols) for g in launch["grid"]]
        block = [c_extent(b, symbols) for b in launch["block"]]
        shared = c_extent(launch.get("dynamic_shared_memory", 0), symbols)
        out.append(f"//   launch {li}: {entry}: grid ({', '.join(grid)}), "
                   f"block ({', '.join(block)}), {shared} bytes of LDS"
                   f"{', cooperative' if launch.get('cooperative') else ''}")
    out += ["#include <cstddef>",
            "#include <cstdint>",
            "#include \"tlc_hip.h\"",
            ""]
    out += _format_signature(f"{_ident(manifest['name'])}_launch", params)
    values = []
    for p in manifest.get("params", []):
        n = _ident(p["name"])
        values.append(n if p["kind"] == "tensor" else f"(void *)&{n}")
    workspaces = [_ident(w["name"]) for w in manifest.get("workspaces", [])]
    syms = [symbols[s] for s in sym_names]
    out.append(f"  void *const params[] = {{{', '.join(values) or 'nullptr'}}};")
    out.append(f"  const int64_t symbols[] = {{{', '.join(syms) or '0'}}};")
    if workspaces:
        out.append(f"  void *const workspaces[] = {{{', '.join(workspaces)}}};")
    out.append(f"  return tlc_hip_kernel_launch(kernel, params, {len(values)}, "
               f"symbols, {len(syms)}, "
               f"{'workspaces' if workspaces else 'nullptr'}, stream);")
    out.append("}")
    return "\n".join(out) + "\n"


def host_source(manifest, name=None, symbol_names=None):
    """The C++ host launcher of a built instance (its manifest).
    ``symbol_names`` renames symbols for the script (``{"M": "m"}`` when
    ``T.dynamic("m")`` was passed as ``M``)."""
    name = name or manifest["name"]
    symbols = {s["name"]: _ident((symbol_names or {}).get(s["name"],
                                                          s["name"]))
               for s in manifest.get("symbols", [])}
    if manifest.get("target") == "cpu":
        return _cpu(manifest, name, symbols)
    if str(manifest.get("target", "")).startswith("cuda"):
        return _cuda(manifest, name, symbols)
    if str(manifest.get("target", "")).startswith("hip"):
        return _hip(manifest, name, symbols)
    raise NotImplementedError(
        f"get_host_source(): no host launcher for target "
        f"{manifest.get('target')} (cuda, hip and cpu have one)")
