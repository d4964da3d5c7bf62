#!/usr/bin/python3
"""The sim device's MFMA builtins against NumPy, with lane tables written
from the CDNA3 ISA's description of each instruction's operands.

CDNA3 ISA ("Matrix Arithmetic Instructions", dependent/independent operand
layouts of the 64-lane MFMA instructions), as tables of (lane, element) ->
matrix entry, written here and not taken from tlc's layout library:

  v_mfma_f32_16x16x16f16 / _16x16x16bf16_1k: A is 16 x 16, lane l holds
    row l % 16, columns 4 (l / 16) .. 4 (l / 16) + 3 in its 4 elements; B
    (16 x 16) column l % 16, rows 4 (l / 16) + v; D (16 x 16) in 4 VGPRs:
    register v of lane l is row 4 (l / 16) + v, column l % 16.
  v_mfma_f32_32x32x8f16 / _32x32x8bf16_1k: A is 32 x 8, lane l holds row l % 32, columns
    4 (l / 32) + v; B (8 x 32) column l % 32, rows 4 (l / 32) + v; D
    (32 x 32) in 16 VGPRs: register v of lane l is row 8 (v / 4) +
    4 (l / 32) + v % 4, column l % 32.

  v_mfma_f32_16x16x32_fp8_fp8 / _bf8_bf8 (CDNA3): A is 16 x 32, lane l
    holds row l % 16, columns 8 (l / 16) .. + 7 in the 8 bytes of its
    64-bit operand (byte v is element v); B (32 x 16) column l % 16, rows
    8 (l / 16) + v; D as the 16x16 f32 instructions. The bytes are FNUZ
    fp8 (sign, 4 exponent bits with bias 8, 3 mantissa bits) or bf8 (5
    exponent bits, bias 16, 2 mantissa bits): no infinities, 0x80 NaN
    (the kernel passes 0x80 as 0), decoded here in NumPy. _fp8_bf8 and
    _bf8_fp8 take the same lanes, srcA in the first named format and srcB
    in the second.
  v_mfma_f32_32x32x16_fp8_fp8 / _bf8_bf8 (and the two-format ones)
    (CDNA3): A is 32 x 16, lane l
    holds row l % 32, columns 8 (l / 32) .. + 7 in its 8 bytes; B (16 x 32)
    column l % 32, rows 8 (l / 32) + v; D as the 32x32 f32 instructions.

  The int8 instructions (16x16x32, 32x32x16 on CDNA3; 16x16x16, 32x32x8 on
    CDNA2): see INT8_INSTRUCTIONS below.

  v_mfma_f32_16x16x4f32 / v_mfma_f32_32x32x2f32 (CDNA1 onwards): one f32
    VGPR per lane for A and for B. A is M x K (K = 64 / M: 16 x 4, 32 x 2),
    lane l holds row l % M, column l / M; B (K x M) column l % M, row
    l / M; D as the f16 instruction of the same tile size (16x16: register
    v of lane l is row 4 (l / 16) + v; 32x32: row 8 (v / 4) + 4 (l / 32) +
    v % 4), column l % M.

  v_mfma_f64_16x16x4f64 (CDNA2 onwards): one f64 (a VGPR pair) per lane for
    A and for B, as 16x16x4f32 (A[l % 16][l / 16], B[l / 16][l % 16]), but
    D (16 x 16 f64, 4 VGPR pairs) holds in register v of lane l row
    4 v + l / 16, column l % 16: not the f32 layout (AMD's matrix
    instruction calculator, matrix_calculator.py: "64b outputs ... only 1
    row (register-pair) tall", D[i][j] in register floor(i / 4), lane
    16 (i % 4) + j; IREE's MFMA_F64_16x16x4_F64 accumulator layout, outer
    {4, 1}, thread {4, 16}, agrees). A variant reading D through the f32
    layout must differ.

  v_mfma_f32_16x16x32_f16 / _bf16, v_mfma_f32_32x32x16_f16 / _bf16
    (gfx950, CDNA4): 8 values per lane, the lanes of the 8-bit CDNA3
    instructions of the same tile (A[l % M][8 (l / M) + v], B[8 (l / M) +
    v][l % M], D as the f32 instructions; IREE's mfmaLhs16xK(32) /
    mfmaLhs32xK(16) layouts). Compiled for gfx950.

A hand-written HIP kernel (one wavefront) loads each lane's operands and
stores its results through these tables, calls the builtin, and runs on the
sim device; D must equal NumPy's A @ B. A variant with two A rows swapped in
the table must not. With the HIP toolchain installed the same source is also
compiled into a gfx942 code object (gfx90a for the CDNA2 int8 ones; the
builtins' signatures are the device's). Usage: mfma_lanes.py --bin BUILD/bin
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

KERNEL = r"""
#include "tlc_device/hip.h"
typedef float accx __attribute__((ext_vector_type(REGS)));
typedef ELEM vecx4 __attribute__((ext_vector_type(4)));
__device__ const int tabA[64][4] = {TAB_A};
__device__ const int tabB[64][4] = {TAB_B};
__device__ const int tabD[64][REGS] = {TAB_D};
extern "C" __global__ void __launch_bounds__(64) lanes_kernel(
    const STORAGE *__restrict__ A, const STORAGE *__restrict__ B,
    float *__restrict__ D) {
  const int lane = threadIdx.x;
  vecx4 a, b;
  for (int v = 0; v < 4; ++v) {
    a[v] = LOAD(A[tabA[lane][v]]);
    b[v] = LOAD(B[tabB[lane][v]]);
  }
  accx c = {};
  c = BUILTIN(a, b, c, 0, 0, 0);
  for (int r = 0; r < REGS; ++r)
    D[tabD[lane][r]] = c[r];
}
"""

KERNEL8 = r"""
#include "tlc_device/hip.h"
typedef ACC accx __attribute__((ext_vector_type(REGS)));
__device__ const int tabA[64][NPER] = {TAB_A};
__device__ const int tabB[64][NPER] = {TAB_B};
__device__ const int tabD[64][REGS] = {TAB_D};
extern "C" __global__ void __launch_bounds__(64) lanes_kernel(
    const uint8_t *__restrict__ A, const uint8_t *__restrict__ B,
    ACC *__restrict__ D) {
  const int lane = threadIdx.x;
  unsigned long long a = 0, b = 0;
  for (int v = 0; v < NPER; ++v) {
    uint8_t x = A[tabA[lane][v]], y = B[tabB[lane][v]];
    a |= (unsigned long long)(FP8 && x == 0x80 ? 0 : x) << (8 * v);
    b |= (unsigned long long)(FP8 && y == 0x80 ? 0 : y) << (8 * v);
  }
  accx c = {};
  c = BUILTIN((OPTYPE)a, (OPTYPE)b, c, 0, 0, 0);
  for (int r = 0; r < REGS; ++r)
    D[tabD[lane][r]] = c[r];
}
"""

KERNEL32 = r"""
#include "tlc_device/hip.h"
typedef float accx __attribute__((ext_vector_type(REGS)));
__device__ const int tabA[64] = {TAB_A};
__device__ const int tabB[64] = {TAB_B};
__device__ const int tabD[64][REGS] = {TAB_D};
extern "C" __global__ void __launch_bounds__(64) lanes_kernel(
    const float *__restrict__ A, const float *__restrict__ B,
    float *__restrict__ D) {
  const int lane = threadIdx.x;
  accx c = {};
  c = BUILTIN(A[tabA[lane]], B[tabB[lane]], c, 0, 0, 0);
  for (int r = 0; r < REGS; ++r)
    D[tabD[lane][r]] = c[r];
}
"""

KERNEL64 = r"""
#include "tlc_device/hip.h"
typedef double accx __attribute__((ext_vector_type(4)));
__device__ const int tabA[64] = {TAB_A};
__device__ const int tabB[64] = {TAB_B};
__device__ const int tabD[64][4] = {TAB_D};
extern "C" __global__ void __launch_bounds__(64) lanes_kernel(
    const double *__restrict__ A, const double *__restrict__ B,
    double *__restrict__ D) {
  const int lane = threadIdx.x;
  accx c = {};
  c = __builtin_amdgcn_mfma_f64_16x16x4f64(A[tabA[lane]], B[tabB[lane]], c, 0, 0, 0);
  for (int r = 0; r < 4; ++r)
    D[tabD[lane][r]] = c[r];
}
"""

KERNEL950 = r"""
#include "tlc_device/hip.h"
typedef float accx __attribute__((ext_vector_type(REGS)));
typedef ELEM vecx8 __attribute__((ext_vector_type(8)));
__device__ const int tabA[64][8] = {TAB_A};
__device__ const int tabB[64][8] = {TAB_B};
__device__ const int tabD[64][REGS] = {TAB_D};
extern "C" __global__ void __launch_bounds__(64) lanes_kernel(
    const STORAGE *__restrict__ A, const STORAGE *__restrict__ B,
    float *__restrict__ D) {
  const int lane = threadIdx.x;
  vecx8 a, b;
  for (int v = 0; v < 8; ++v) {
    a[v] = LOAD(A[tabA[lane][v]]);
    b[v] = LOAD(B[tabB[lane][v]]);
  }
  accx c = {};
  c = BUILTIN(OPERAND(a), OPERAND(b), c, 0, 0, 0);
  for (int r = 0; r < REGS; ++r)
    D[tabD[lane][r]] = c[r];
}
"""

# gfx950's 16-bit instructions with 8 values per lane: name: (builtin, M,
# element, storage, load, dtype); bf16 operands are built as shorts and
# cast whole to tlc::hip::bf16x8 (a __bf16 vector on the device).
GFX950_INSTRUCTIONS = {
    "v_mfma_f32_16x16x32_f16": ("__builtin_amdgcn_mfma_f32_16x16x32_f16", 16, "_Float16",
                                "tlc::hip::half", "{}", "float16"),
    "v_mfma_f32_16x16x32_bf16": ("__builtin_amdgcn_mfma_f32_16x16x32_bf16", 16, "short",
                                 "tlc::hip::bfloat16", "(short){}.bits", "bfloat16"),
    "v_mfma_f32_32x32x16_f16": ("__builtin_amdgcn_mfma_f32_32x32x16_f16", 32, "_Float16",
                                "tlc::hip::half", "{}", "float16"),
    "v_mfma_f32_32x32x16_bf16": ("__builtin_amdgcn_mfma_f32_32x32x16_bf16", 32, "short",
                                 "tlc::hip::bfloat16", "(short){}.bits", "bfloat16"),
}


def tables64():
    """v_mfma_f64_16x16x4f64: A (16 x 4), B (4 x 16) one value per lane; D
    (16 x 16) register v of lane l at row 4 v + l / 16, column l % 16."""
    a = [[(l % 16) * 4 + l // 16] for l in range(64)]
    b = [[(l // 16) * 16 + l % 16] for l in range(64)]
    d = [[(4 * v + l // 16) * 16 + l % 16 for v in range(4)] for l in range(64)]
    return a, b, d


# f32 instructions (one value per lane): name: (builtin, M)
F32_INSTRUCTIONS = {
    "v_mfma_f32_16x16x4f32": ("__builtin_amdgcn_mfma_f32_16x16x4f32", 16),
    "v_mfma_f32_32x32x2f32": ("__builtin_amdgcn_mfma_f32_32x32x2f32", 32),
}


def tables32(m):
    """The f32 tables: A (m x k), B (k x m), D (m x m), k = 64 / m; one
    value of A and of B per lane."""
    k = 64 // m
    a = [[(l % m) * k + l // m] for l in range(64)]
    b = [[(l // m) * m + l % m] for l in range(64)]
    if m == 16:
        row = lambda l, v: 4 * (l // 16) + v
    else:
        row = lambda l, v: 8 * (v // 4) + 4 * (l // 32) + v % 4
    d = [[row(l, v) * m + l % m for v in range(m * m // 64)] for l in range(64)]
    return a, b, d


# 8-bit float instructions: name: (builtin, M, srcA's exponent bits and
# bias, srcB's). The two-format ones (_fp8_bf8, _bf8_fp8) name srcA's
# format first.
FP8 = (4, 8)
BF8 = (5, 16)
FP8_INSTRUCTIONS = {
    "v_mfma_f32_16x16x32_fp8_fp8": ("__builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8", 16, FP8, FP8),
    "v_mfma_f32_16x16x32_bf8_bf8": ("__builtin_amdgcn_mfma_f32_16x16x32_bf8_bf8", 16, BF8, BF8),
    "v_mfma_f32_16x16x32_fp8_bf8": ("__builtin_amdgcn_mfma_f32_16x16x32_fp8_bf8", 16, FP8, BF8),
    "v_mfma_f32_16x16x32_bf8_fp8": ("__builtin_amdgcn_mfma_f32_16x16x32_bf8_fp8", 16, BF8, FP8),
    "v_mfma_f32_32x32x16_fp8_fp8": ("__builtin_amdgcn_mfma_f32_32x32x16_fp8_fp8", 32, FP8, FP8),
    "v_mfma_f32_32x32x16_bf8_bf8": ("__builtin_amdgcn_mfma_f32_32x32x16_bf8_bf8", 32, BF8, BF8),
    "v_mfma_f32_32x32x16_fp8_bf8": ("__builtin_amdgcn_mfma_f32_32x32x16_fp8_bf8", 32, FP8, BF8),
    "v_mfma_f32_32x32x16_bf8_fp8": ("__builtin_amdgcn_mfma_f32_32x32x16_bf8_fp8", 32, BF8, FP8),
}


def fnuz(bytes_, ebits, bias):
    """FNUZ fp8/bf8 bytes as float64 (0x80, passed as 0 by the kernel: 0)."""
    x = bytes_.astype(np.int64)
    mbits = 7 - ebits
    e = (x & 0x7F) >> mbits
    m = x & ((1 << mbits) - 1)
    v = np.where(e == 0, np.ldexp(m.astype(np.float64), 1 - bias - mbits),
                 np.ldexp((m + (1 << mbits)).astype(np.float64), e - bias - mbits))
    v = np.where(x & 0x80, -v, v)
    return np.where(x == 0x80, 0.0, v)


# 8-bit integer instructions: name: (builtin, M, int8 values per lane,
# architecture). v_mfma_i32_16x16x32_i8 / _32x32x16_i8 (CDNA3): A is m x k
# (k = 512 / m), lane l holds row l % m, columns 8 (l / m) .. + 7 in the 8
# bytes of its 64-bit operand (byte v is element v, two's complement); B
# column l % m, rows 8 (l / m) + v; D (int32, sums wrapping modulo 2^32)
# as the f32 instructions of its tile size. v_mfma_i32_16x16x16i8 /
# _32x32x8i8 (CDNA2): the same with 4 bytes in a 32-bit operand (k = 256 /
# m, columns 4 (l / m) + v).
INT8_INSTRUCTIONS = {
    "v_mfma_i32_16x16x32_i8": ("__builtin_amdgcn_mfma_i32_16x16x32_i8", 16, 8, "gfx942"),
    "v_mfma_i32_32x32x16_i8": ("__builtin_amdgcn_mfma_i32_32x32x16_i8", 32, 8, "gfx942"),
    "v_mfma_i32_16x16x16i8": ("__builtin_amdgcn_mfma_i32_16x16x16i8", 16, 4, "gfx90a"),
    "v_mfma_i32_32x32x8i8": ("__builtin_amdgcn_mfma_i32_32x32x8i8", 32, 4, "gfx90a"),
}


def tables8(m, per=8):
    """The 8-bit tables, \p per bytes per lane: A (m x k), B (k x m), D
    (m x m), k = 64 per / m."""
    k = 64 * per // m
    a = [[(l % m) * k + per * (l // m) + v for v in range(per)] for l in range(64)]
    b = [[(per * (l // m) + v) * m + l % m for v in range(per)] for l in range(64)]
    if m == 16:
        row = lambda l, v: 4 * (l // 16) + v
    else:
        row = lambda l, v: 8 * (v // 4) + 4 * (l // 32) + v % 4
    d = [[row(l, v) * m + l % m for v in range(m * m // 64)] for l in range(64)]
    return a, b, d


# name: (builtin, M, N, K, element, storage, load, dtype)
INSTRUCTIONS = {
    "v_mfma_f32_16x16x16f16": ("__builtin_amdgcn_mfma_f32_16x16x16f16", 16, 16,
                               "_Float16", "tlc::hip::half", "{}", "float16"),
    "v_mfma_f32_16x16x16bf16_1k": ("__builtin_amdgcn_mfma_f32_16x16x16bf16_1k", 16, 16,
                                   "short", "tlc::hip::bfloat16", "(short){}.bits",
                                   "bfloat16"),
    "v_mfma_f32_32x32x8f16": ("__builtin_amdgcn_mfma_f32_32x32x8f16", 32, 8,
                              "_Float16", "tlc::hip::half", "{}", "float16"),
    "v_mfma_f32_32x32x8bf16_1k": ("__builtin_amdgcn_mfma_f32_32x32x8bf16_1k", 32, 8,
                                  "short", "tlc::hip::bfloat16", "(short){}.bits",
                                  "bfloat16"),
}


def tables(m, k):
    """(A, B, D) tables of the ISA layouts: flat row-major indices of
    A (m x k), B (k x m) and D (m x m) per lane and element."""
    a = [[(l % m) * k + 4 * (l // m) + v for v in range(4)] for l in range(64)]
    b = [[(4 * (l // m) + v) * m + l % m for v in range(4)] for l in range(64)]
    regs = m * m // 64
    if m == 16:
        row = lambda l, v: 4 * (l // 16) + v
    else:
        row = lambda l, v: 8 * (v // 4) + 4 * (l // 32) + v % 4
    d = [[row(l, v) * m + l % m for v in range(regs)] for l in range(64)]
    return a, b, d


def c_table(t):
    return ", ".join("{" + ", ".join(map(str, row)) + "}" for row in t)


def manifest(m, k, dtype, out="float32", arch="gfx942"):
    def tensor(name, shape, dt, role):
        return {"name": name, "kind": "tensor", "dtype": dt, "shape": shape, "role": role}
    return {
        "format": "tlc-kernel", "version": 1, "name": "lanes", "kernel": "lanes",
        "target": f"hip:{arch}", "source_file": "mfma_lanes.py",
        "generated_source": "lanes.hip", "binary": "lanes.hsaco", "entry": "lanes_kernel",
        "source_hash": "", "symbols": [],
        "params": [tensor("A", [m, k], dtype, "in"), tensor("B", [k, m], dtype, "in"),
                   tensor("D", [m, m], out, "out")],
        "launches": [{"grid": [1], "block": [64], "dynamic_shared_memory": 0,
                      "entry": "lanes_kernel", "location": "mfma_lanes.py:1:1"}],
    }


def to_f64(x):
    return x.astype(np.float64)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="tlc-sim-mfma-")
    clang = shutil.which("clang++-22")
    libs = "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode"
    failed = 0
    # (name, builtin, M, K, element, storage, load, dtype, fp8, (per, arch))
    cases = [(instr, builtin, m, k, elem, storage, load, dtype, None, None)
             for instr, (builtin, m, k, elem, storage, load, dtype) in INSTRUCTIONS.items()]
    cases += [(instr, builtin, m, 64 // m, "float", None, None, "float32", None, None)
              for instr, (builtin, m) in F32_INSTRUCTIONS.items()]
    cases += [(instr, builtin, m, 512 // m, None, None, None, "uint8", (fa, fb), None)
              for instr, (builtin, m, fa, fb) in FP8_INSTRUCTIONS.items()]
    cases += [(instr, builtin, m, 64 * per // m, None, None, None, "int8", None, (per, arch))
              for instr, (builtin, m, per, arch) in INT8_INSTRUCTIONS.items()]
    cases += [("v_mfma_f64_16x16x4f64", "__builtin_amdgcn_mfma_f64_16x16x4f64", 16, 4, None,
               None, None, "float64", None, (1, "gfx942"))]
    cases += [(instr, builtin, m, 512 // m, elem, storage, load, dtype, None, (8, "gfx950"))
              for instr, (builtin, m, elem, storage, load, dtype) in GFX950_INSTRUCTIONS.items()]
    for instr, builtin, m, k, elem, storage, load, dtype, fp8, int8 in cases:
        per, arch = int8 if int8 else (8, "gfx942")
        f32 = dtype == "float32"
        f64 = dtype == "float64"
        cdna4 = arch == "gfx950"
        int8 = int8 if dtype == "int8" else None
        ta, tb, td = (tables64() if f64 else tables8(m, per) if fp8 or int8 or cdna4 else
                      tables32(m) if f32 else tables(m, k))
        broken = [row[:] for row in ta]
        broken[0], broken[1] = broken[1], broken[0]  # lanes of rows 0 and 1
        variants = [("ISA tables", ta, td, True), ("A rows 0 and 1 swapped", broken, td, False)]
        if f64:  # D read through the f32 16x16 layout (row 4 (l / 16) + v)
            variants.append(("D read as the f32 16x16 layout", ta, tables32(16)[2], False))
        for variant, table_a, table_d, should_match in variants:
            name = f"{instr}, {variant}"
            art = os.path.join(work, f"{instr}-{len(name)}-{should_match}", "art")
            os.makedirs(art)
            shutil.copytree(os.path.join(ROOT, "runtime", "device", "include", "tlc_device"),
                            os.path.join(art, "tlc_device"))
            td = table_d
            if f64:
                flat = lambda t: ", ".join(str(row[0]) for row in t)
                src = (KERNEL64.replace("TAB_A", flat(table_a)).replace("TAB_B", flat(tb))
                       .replace("TAB_D", c_table(td)))
            elif cdna4:
                src = (KERNEL950.replace("TAB_A", c_table(table_a)).replace("TAB_B", c_table(tb))
                       .replace("TAB_D", c_table(td)).replace("REGS", str(m * m // 64))
                       .replace("ELEM", elem).replace("STORAGE", storage)
                       .replace("LOAD(A[tabA[lane][v]])", load.format("A[tabA[lane][v]]"))
                       .replace("LOAD(B[tabB[lane][v]])", load.format("B[tabB[lane][v]]"))
                       .replace("OPERAND(a)", "__builtin_bit_cast(tlc::hip::bf16x8, a)"
                                if elem == "short" else "a")
                       .replace("OPERAND(b)", "__builtin_bit_cast(tlc::hip::bf16x8, b)"
                                if elem == "short" else "b")
                       .replace("BUILTIN", builtin))
            elif f32:
                flat = lambda t: ", ".join(str(row[0]) for row in t)
                src = (KERNEL32.replace("TAB_A", flat(table_a)).replace("TAB_B", flat(tb))
                       .replace("TAB_D", c_table(td)).replace("REGS", str(m * m // 64))
                       .replace("BUILTIN", builtin))
            elif fp8 or int8:
                src = (KERNEL8.replace("TAB_A", c_table(table_a)).replace("TAB_B", c_table(tb))
                       .replace("TAB_D", c_table(td)).replace("BUILTIN", builtin)
                       .replace("REGS", str(m * m // 64)).replace("NPER", str(per))
                       .replace("ACC", "int" if int8 else "float")
                       .replace("FP8", "0" if int8 else "1")
                       .replace("OPTYPE", "int" if per == 4 else "long"))
            else:
                src = (KERNEL.replace("TAB_A", c_table(table_a)).replace("TAB_B", c_table(tb))
                       .replace("TAB_D", c_table(td)).replace("REGS", str(m * m // 64))
                       .replace("ELEM", elem).replace("STORAGE", storage)
                       .replace("LOAD(A[tabA[lane][v]])", load.format("A[tabA[lane][v]]"))
                       .replace("LOAD(B[tabB[lane][v]])", load.format("B[tabB[lane][v]]"))
                       .replace("BUILTIN", builtin))
            with open(os.path.join(art, "lanes.hip"), "w") as f:
                f.write(src)
            with open(os.path.join(art, "lanes.json"), "w") as f:
                json.dump(manifest(m, k, dtype, "int32" if int8 else "float64" if f64 else
                                   "float32", arch), f)
            if should_match and clang and os.path.exists(os.path.join(libs, "ocml.bc")):
                proc = subprocess.run([clang, "-x", "hip", f"--offload-arch={arch}",
                                       "--cuda-device-only", "--no-gpu-bundle-output",
                                       "-nogpuinc", "-nogpulib", "-O2", "-I", art,
                                       os.path.join(art, "lanes.hip"), "-o",
                                       os.path.join(art, "lanes.hsaco")],
                                      capture_output=True, text=True)
                if proc.returncode != 0:
                    print(proc.stderr)
                    print(f"FAIL: {name}: does not compile for {arch}")
                    failed += 1
            out = os.path.join(os.path.dirname(art), "out")
            proc = subprocess.run([os.path.join(args.bin, "tlc-run"), art, "--device", "sim",
                                   "--seed", "5", "--save", out], capture_output=True, text=True)
            if proc.returncode != 0:
                print(proc.stdout + proc.stderr)
                print(f"FAIL: {name}: tlc-run failed")
                failed += 1
                continue
            a = np.load(os.path.join(out, "inputs", "A.npy"))
            b = np.load(os.path.join(out, "inputs", "B.npy"))
            if int8:  # exact: |sums| < 2^31, so int64 is the wrapped result
                a, b = a.astype(np.int64), b.astype(np.int64)
                d = np.load(os.path.join(out, "D.npy")).astype(np.int64)
                ref = a @ b
                matches = np.array_equal(d, ref)
            else:
                a, b = (fnuz(a, *fp8[0]), fnuz(b, *fp8[1])) if fp8 else (to_f64(a), to_f64(b))
                d = to_f64(np.load(os.path.join(out, "D.npy")))
                ref = a @ b
                matches = (np.allclose(d, ref, rtol=1e-13, atol=1e-13) if f64 else
                           np.allclose(d, ref, rtol=1e-6, atol=1e-5))
            ok = matches == should_match
            print(f"{'PASS' if ok else 'FAIL'}: {name}: "
                  f"{'matches' if matches else 'differs from'} NumPy's A @ B "
                  f"(max abs difference {np.max(np.abs(d - ref)):.3g})")
            failed += not ok
    shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
