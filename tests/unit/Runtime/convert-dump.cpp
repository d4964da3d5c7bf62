//===- convert-dump.cpp - Dump the CPU target's float conversions ---------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `tlc-convert-dump IN OUT`: reads raw little-endian float32 values from IN
// and writes, per value, the float16, bfloat16, float8_e4m3fn and
// float8_e5m2 values that tlc_device/cpu.h rounds it to, as float32 rows of
// four (check_conversions.py compares them with NumPy).
// `tlc-convert-dump --decode-f16 OUT` writes the float32 value of every
// binary16 bit pattern 0..65535 in order.
//
//===----------------------------------------------------------------------===//

#include "tlc_device/cpu.h"

#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  if (argc == 3 && std::string(argv[1]) == "--decode-f16") {
    FILE *out = std::fopen(argv[2], "wb");
    if (!out)
      return 1;
    for (uint32_t h = 0; h < 65536; ++h) {
      float v = tlc::cpu::halfBitsToFloat(uint16_t(h));
      std::fwrite(&v, 4, 1, out);
    }
    std::fclose(out);
    return 0;
  }
  if (argc != 3) {
    std::fprintf(stderr, "usage: tlc-convert-dump IN OUT\n");
    return 2;
  }
  FILE *in = std::fopen(argv[1], "rb");
  FILE *out = std::fopen(argv[2], "wb");
  if (!in || !out)
    return 1;
  float x;
  while (std::fread(&x, 4, 1, in) == 1) {
    using namespace tlc::cpu;
    float row[4] = {halfBitsToFloat(floatToHalfBits(x)),
                    bfloat16BitsToFloat(floatToBFloat16Bits(x)),
                    e4m3BitsToFloat(floatToE4M3Bits(x)),
                    e5m2BitsToFloat(floatToE5M2Bits(x))};
    std::fwrite(row, 4, 4, out);
  }
  std::fclose(in);
  std::fclose(out);
  return 0;
}
