// The directed roundings of tlc_device/hip/ieee.h against the host's own
// (x86 SSE arithmetic under fesetround), on random and edge f32 operands.
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>

#define TLC_DEVICE_HIP_COMMON_H // the header needs only TLC_DEVICE
#define TLC_DEVICE inline
#include "tlc_device/hip/ieee.h"

using namespace tlc::hip;

static float fromBits(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
static bool same(float a, float b) {
  return std::memcmp(&a, &b, 4) == 0 || (a != a && b != b);
}

int main(int argc, char **argv) {
  // Any argument: use a broken rounding (always to nearest) to show the
  // comparison can fail.
  bool broken = argc > 1;
  std::mt19937 rng(7);
  const int modes[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD};
  long checked = 0, wrong = 0;
  for (int n = 0; n < 60000; ++n) {
    float a, b, c;
    if (n % 4 == 0) { // arbitrary bit patterns (subnormals, huge, inf, NaN)
      a = fromBits(rng()), b = fromBits(rng()), c = fromBits(rng());
    } else {
      std::uniform_real_distribution<float> u(-4.0f, 4.0f);
      a = u(rng), b = u(rng), c = u(rng);
    }
    for (int m = 0; m < 4; ++m) {
      auto r = broken ? ieee::RN : ieee::Rounding(m);
      volatile float va = a, vb = b, vc = c;
      std::fesetround(modes[m]);
      float want[7] = {va + vb,
                       va - vb,
                       va * vb,
                       va / vb,
                       std::fmaf(va, vb, vc),
                       1.0f / va,
                       std::sqrt(std::fabs(va))};
      std::fesetround(FE_TONEAREST);
      float got[7] = {ieee::add(a, b, r),         ieee::sub(a, b, r),
                      ieee::mul(a, b, r),         ieee::div(a, b, r),
                      ieee::fma(a, b, c, r),      ieee::rcp(a, r),
                      ieee::sqrt(std::fabs(a), r)};
      for (int k = 0; k < 7; ++k, ++checked)
        if (!same(want[k], got[k]) && wrong++ < 5)
          std::printf("op %d mode %d: %a %a %a: want %a got %a\n", k, m, a, b,
                      c, want[k], got[k]);
    }
  }
  std::printf("%ld checked, %ld wrong\n", checked, wrong);
  return wrong != 0;
}
