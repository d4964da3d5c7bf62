"""Structural checks of tlc-build --emit=layout-svg pictures (xml.etree).

Usage: check_layout_svg.py KIND FILE [options]; prints one line per file
and exits non-zero on the first failed check. The expected facts come from
the PTX ISA (mma.m16n8 accumulator: lane l holds rows l/4 and l/4 + 8,
columns 2 (l % 4) and 2 (l % 4) + 1 of each 16x8 tile) and from the device
runtime's documented row swizzle (tlc_device/cuda/swizzle.h), not from the
compiler.
"""
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def load(path):
    root = ET.parse(path).getroot()
    if root.tag != NS + "svg":
        fail(f"{path}: root is {root.tag}")
    vb = [float(x) for x in root.get("viewBox").split()]
    cells = root.findall(f".//{NS}rect[@class='cell']")
    return root, vb, cells


def common(path, root, vb, cells, rows, cols):
    if len(cells) != rows * cols:
        fail(f"{path}: {len(cells)} cells, expected {rows * cols}")
    title = root.find(NS + "title")
    if title is None or not title.text:
        fail(f"{path}: no document title")
    for c in cells:
        t = c.find(NS + "title")
        if t is None or not t.text:
            fail(f"{path}: cell without a tooltip")
        x, y = float(c.get("x")), float(c.get("y"))
        w, h = float(c.get("width")), float(c.get("height"))
        if x < 0 or y < 0 or x + w > vb[2] or y + h > vb[3]:
            fail(f"{path}: cell outside the viewBox")
    # In-cell text fits its cell: glyphs are at most 0.62 em wide.
    cw = float(cells[0].get("width"))
    for g in root.findall(f".//{NS}g[@class='cell-text']"):
        size = float(g.get("font-size"))
        for t in g.findall(NS + "text"):
            if len(t.text) * 0.62 * size > cw - 2 or 2 * size > cw:
                fail(f"{path}: text '{t.text}' overflows a cell of {cw}")
    return title.text


def check_fragment(path, rows, cols, threads, texts):
    root, vb, cells = load(path)
    title = common(path, root, vb, cells, rows, cols)
    if root.get("data-kind") != "fragment":
        fail(f"{path}: not a fragment picture")
    colour = {}
    warp_of_tile = {}
    for c in cells:
        i, j = int(c.get("data-i")), int(c.get("data-j"))
        t, r = int(c.get("data-thread")), int(c.get("data-reg"))
        lane = t % 32
        # PTX ISA mma.m16n8 accumulator fragment.
        if lane != 4 * (i % 8) + (j % 8) // 2:
            fail(f"{path}: ({i},{j}) on lane {lane}")
        # Every 16x8 tile belongs to one warp.
        key = (i // 16, j // 8)
        if warp_of_tile.setdefault(key, t // 32) != t // 32:
            fail(f"{path}: tile {key} split over warps")
        if colour.setdefault(t, c.get("fill")) != c.get("fill"):
            fail(f"{path}: thread {t} drawn in two colours")
        tip = c.find(NS + "title").text
        if f"thread {t}, register {r}" not in tip or f"[{i}, {j}]" not in tip:
            fail(f"{path}: tooltip '{tip}'")
    if len(colour) != threads or len(set(colour.values())) != threads:
        fail(f"{path}: {len(colour)} threads, "
             f"{len(set(colour.values()))} colours, expected {threads}")
    ntext = len(root.findall(f".//{NS}g[@class='cell-text']/{NS}text"))
    if ntext != (2 * rows * cols if texts else 0):
        fail(f"{path}: {ntext} cell texts")
    print(f"ok fragment {rows}x{cols} {threads} threads: {title}")


def runtime_swizzle(row, col, chunks, elems):
    chunk = col // elems
    mask = (row & 7 if chunks >= 8 else (row >> 1) & 3 if chunks == 4
            else (row >> 2) & 1 if chunks == 2 else 0)
    return row * chunks * elems + (chunk ^ mask) * elems + col % elems


def check_shared(path, rows, cols, elem_bytes, swizzled):
    root, vb, cells = load(path)
    title = common(path, root, vb, cells, rows, cols)
    if root.get("data-kind") != "shared":
        fail(f"{path}: not a shared picture")
    elems = 16 // elem_bytes
    colour = {}
    for c in cells:
        i, j = int(c.get("data-i")), int(c.get("data-j"))
        off = int(c.get("data-offset"))
        want = (runtime_swizzle(i, j, cols // elems, elems) if swizzled
                else i * cols + j)
        if off != want:
            fail(f"{path}: ({i},{j}) at {off}, expected {want}")
        bank = int(c.get("data-bank"))
        if bank != off * elem_bytes // 4 % 32:
            fail(f"{path}: ({i},{j}) bank {bank}")
        if colour.setdefault(bank, c.get("fill")) != c.get("fill"):
            fail(f"{path}: bank {bank} in two colours")
    if len(set(colour.values())) != len(colour):
        fail(f"{path}: banks share colours")
    swatches = root.findall(f".//{NS}rect[@class='swatch']")
    if len(swatches) != 32:
        fail(f"{path}: {len(swatches)} legend swatches")
    print(f"ok shared {rows}x{cols}: {title}")


kind, path = sys.argv[1], sys.argv[2]
args = [int(a) for a in sys.argv[3:]]
if kind == "fragment":
    check_fragment(path, *args[:3], bool(args[3]))
else:
    check_shared(path, *args[:3], bool(args[3]))
