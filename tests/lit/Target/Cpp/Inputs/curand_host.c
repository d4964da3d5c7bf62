/* curand's host generators (libcurand, run on the CPU) for rng-streams.py:
 * prints N uint32 of curandGenerate, then N floats of curandGenerateUniform
 * (%.9g), for generator KIND (xorwow | mrg) and SEED, default ordering.
 * Usage: curand_host KIND SEED N */
#include <curand.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc != 4)
    return 2;
  curandRngType_t type = strcmp(argv[1], "xorwow") == 0
                             ? CURAND_RNG_PSEUDO_XORWOW
                             : CURAND_RNG_PSEUDO_MRG32K3A;
  unsigned long long seed = strtoull(argv[2], 0, 10);
  size_t n = strtoull(argv[3], 0, 10);
  unsigned int *u = malloc(n * sizeof *u);
  float *f = malloc(n * sizeof *f);
  curandGenerator_t g;
  if (curandCreateGeneratorHost(&g, type) ||
      curandSetPseudoRandomGeneratorSeed(g, seed) ||
      curandGenerate(g, u, n))
    return 1;
  curandDestroyGenerator(g);
  if (curandCreateGeneratorHost(&g, type) ||
      curandSetPseudoRandomGeneratorSeed(g, seed) ||
      curandGenerateUniform(g, f, n))
    return 1;
  curandDestroyGenerator(g);
  for (size_t i = 0; i < n; ++i)
    printf("%u\n", u[i]);
  for (size_t i = 0; i < n; ++i)
    printf("%.9g\n", f[i]);
  return 0;
}
