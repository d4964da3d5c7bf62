"""Checks the Philox4x32-10 streams of T.rng_* against NVIDIA's curand on a
GPU: a CUDA program (written here, compiled with nvcc) draws with
curand_init(seed, seq, off) / curand / curand_uniform / curand_normal /
curand_uniform_double / curand_normal_double for several (seed, seq, off),
and every value is compared with the NumPy generator of
tests/lit/Target/Cpp/Inputs/rng_philox_ref.py, which the lit test
rng-philox.py checks tlc's CPU and sim output against (and, with --device
cuda, tlc's GPU output). Equal uint32 streams here make tlc's streams
curand's.

Usage: python3 curand_philox_check.py WORKDIR   (needs nvcc and a GPU)
"""
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "lit", "Target", "Cpp", "Inputs"))
import rng_philox_ref as ref  # noqa: E402

CASES = [(1234, 0, 0), (1234, 7, 0), (42, 3, 5), (2**63 + 11, 2**40 + 3, 2**33 + 2),
         (0, 2**64 - 1, 3), (987654321, 123, 4097)]
NU, NF = 9, 2

SRC = r"""
#include <curand_kernel.h>
#include <cstdio>
#include <cstdint>
struct Case { unsigned long long seed, seq, off; };
__global__ void draw(const Case *cases, unsigned *u, float *f, float *n,
                     double *d, double *nd) {
  int c = threadIdx.x;
  curandStatePhilox4_32_10_t s;
  curand_init(cases[c].seed, cases[c].seq, cases[c].off, &s);
  for (int i = 0; i < %(NU)d; ++i) u[c * %(NU)d + i] = curand(&s);
  curand_init(cases[c].seed, cases[c].seq, cases[c].off, &s);
  for (int i = 0; i < %(NF)d; ++i) f[c * %(NF)d + i] = curand_uniform(&s);
  curand_init(cases[c].seed, cases[c].seq, cases[c].off, &s);
  for (int i = 0; i < %(NF)d; ++i) n[c * %(NF)d + i] = curand_normal(&s);
  curand_init(cases[c].seed, cases[c].seq, cases[c].off, &s);
  for (int i = 0; i < %(NF)d; ++i) d[c * %(NF)d + i] = curand_uniform_double(&s);
  curand_init(cases[c].seed, cases[c].seq, cases[c].off, &s);
  for (int i = 0; i < %(NF)d; ++i) nd[c * %(NF)d + i] = curand_normal_double(&s);
}
int main(int argc, char **argv) {
  const int C = %(C)d;
  Case h[C] = {%(CASES)s};
  Case *dc; unsigned *u; float *f, *n; double *d, *nd;
  cudaMalloc(&dc, sizeof h); cudaMemcpy(dc, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMallocManaged(&u, C * %(NU)d * 4); cudaMallocManaged(&f, C * %(NF)d * 4);
  cudaMallocManaged(&n, C * %(NF)d * 4); cudaMallocManaged(&d, C * %(NF)d * 8);
  cudaMallocManaged(&nd, C * %(NF)d * 8);
  draw<<<1, C>>>(dc, u, f, n, d, nd);
  if (cudaDeviceSynchronize() != cudaSuccess) return 1;
  FILE *o = fopen(argv[1], "wb");
  fwrite(u, 4, C * %(NU)d, o); fwrite(f, 4, C * %(NF)d, o); fwrite(n, 4, C * %(NF)d, o);
  fwrite(d, 8, C * %(NF)d, o); fwrite(nd, 8, C * %(NF)d, o); fclose(o);
  return 0;
}
"""


def main():
    work = sys.argv[1]
    os.makedirs(work, exist_ok=True)
    cases = ", ".join("{%dull, %dull, %dull}" % c for c in CASES)
    src = SRC % {"NU": NU, "NF": NF, "C": len(CASES), "CASES": cases}
    cu, exe, out = (os.path.join(work, n) for n in ("curand_draw.cu", "curand_draw", "draws.bin"))
    open(cu, "w").write(src)
    subprocess.run(["nvcc", "-O2", "-arch=sm_90", "-o", exe, cu], check=True)
    subprocess.run([exe, out], check=True)
    raw = open(out, "rb").read()
    C = len(CASES)
    pos = 0

    def take(dtype, count):
        nonlocal pos
        a = np.frombuffer(raw, dtype, count, pos)
        pos += a.nbytes
        return a.reshape(C, -1)

    u, f, n = take(np.uint32, C * NU), take(np.float32, C * NF), take(np.float32, C * NF)
    d, nd = take(np.float64, C * NF), take(np.float64, C * NF)
    bad_u = bad_f = bad_d = 0
    err_n = err_nd = 0.0
    for c, (seed, seq, off) in enumerate(CASES):
        want = ref.stream(seed, seq, off, NU)
        bad_u += sum(int(a) != b for a, b in zip(u[c], want))
        g = ref.Draws(seed, seq, off)
        bad_f += sum(np.float32(a) != g.uniform() for a in f[c])
        g = ref.Draws(seed, seq, off)
        err_n = max(err_n, max(abs(float(a) - float(g.normal())) for a in n[c]))
        g = ref.Draws(seed, seq, off)
        bad_d += sum(float(a) != g.uniform_d() for a in d[c])
        g = ref.Draws(seed, seq, off)
        err_nd = max(err_nd, max(abs(float(a) - float(g.normal_d())) for a in nd[c]))
    print(f"curand vs NumPy Philox, {C} (seed, seq, off) cases:")
    print(f"  curand(): {C * NU - bad_u}/{C * NU} uint32 equal")
    print(f"  curand_uniform: {C * NF - bad_f}/{C * NF} equal")
    print(f"  curand_uniform_double: {C * NF - bad_d}/{C * NF} equal")
    print(f"  curand_normal: max |diff| {err_n:.3g}")
    print(f"  curand_normal_double: max |diff| {err_nd:.3g}")
    ok = bad_u == 0 and bad_f == 0 and bad_d == 0 and err_n < 1e-5 and err_nd < 1e-12
    print("curand philox", "MATCH" if ok else "MISMATCH")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
