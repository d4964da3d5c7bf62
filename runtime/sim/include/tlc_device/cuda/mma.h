//===- mma.h - Warp-level matrix products mma.sync (sim) --------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// mma.sync.aligned.m16n8k16 / m16n8k32 .row.col on the simulator: the warp
// meets, the A (16 x K), B (K x 8) and C (16 x 8) matrices are assembled
// from the 32 lanes' fragments as the PTX ISA's "Matrix Fragments for
// mma.m16n8k16 / mma.m16n8k32" define them (groupID = lane / 4,
// threadID_in_group = lane % 4):
//
//   A, 16-bit: a_i row groupID (+8 for i % 4 >= 2), column
//              2*threadID_in_group + i % 2 (+8 for i >= 4); 2 per register
//   A,  8-bit: a_i row groupID (+8 for i % 8 >= 4), column
//              4*threadID_in_group + i % 4 (+16 for i >= 8); 4 per register
//   B, 16-bit: b_i row 2*threadID_in_group + i % 2 (+8 for i >= 2)
//   B,  8-bit: b_i row 4*threadID_in_group + i % 4 (+16 for i >= 4);
//              column groupID
//   C, D:      c_i row groupID (+8 for i >= 2), column
//              2*threadID_in_group + i % 2
//
// with the lower-numbered element in the lower bits of a register. D is
// C + A*B with the products and their sum exact (double, or int64 for s8)
// and one rounding to the accumulator type; the tensor cores' own internal
// precision differs in the last bits.
//
// One element per register ("Matrix Fragments for mma.m16n8k8", .tf32, and
// "for mma.m8n8k4 with .f64"):
//
//   m16n8k8 .tf32  a0 (groupID, tig), a1 (groupID+8, tig), a2 (groupID,
//                  tig+4), a3 (groupID+8, tig+4); b0 (tig, groupID), b1
//                  (tig+4, groupID); C/D as m16n8k16. Operands are read as
//                  tf32: the 13 low mantissa bits of the f32 pattern are
//                  dropped (truncation), products and sum exact, one
//                  rounding to f32.
//   m8n8k4 .f64    a0 (groupID, tig); b0 (tig, groupID); c0, c1 (groupID,
//                  2*tig + i). Computed in long double where it is wider
//                  than double (the hardware's fma chain rounds each step).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CUDA_MMA_H
#define TLC_DEVICE_CUDA_MMA_H

#include "tlc_device/cuda/common.h"

namespace tlc {
namespace cuda {
namespace simimpl {

enum class MmaInput { F16, BF16, E4M3, E5M2, S8, U8 };
enum class MmaAcc { F32, F16, S32 };

struct MmaLane {
  const uint32_t *a, *b;
  const void *c;
  uint32_t d[4];
};

/// The value of an operand element's \p bits. Not instrumented, like its
/// callers (the mma.sync and wgmma models), which compute definedness from
/// the operands' shadow themselves.
TLC_SIM_UNCHECKED TLC_SIM_NO_SHADOW inline double mmaElement(uint32_t bits,
                                                             MmaInput t) {
  switch (t) {
  case MmaInput::F16:
    return __half::toFloat(static_cast<unsigned short>(bits));
  case MmaInput::BF16: {
    uint32_t f32 = (bits & 0xffffu) << 16;
    float f;
    std::memcpy(&f, &f32, 4);
    return f;
  }
  case MmaInput::E4M3:
    return sim::fp8ValueBits(bits & 0xff, __NV_E4M3);
  case MmaInput::E5M2:
    return sim::fp8ValueBits(bits & 0xff, __NV_E5M2);
  case MmaInput::S8:
    return double(int8_t(bits & 0xff));
  case MmaInput::U8:
    return double(bits & 0xff);
  }
  return 0;
}

/// Whether any of the \p n bytes at \p p is undefined (initcheck).
TLC_SIM_UNCHECKED TLC_SIM_NO_SHADOW inline bool mmaUndefined(const void *p,
                                                             size_t n) {
#ifdef TLC_SIM_INITCHECK
  if (const unsigned char *s = sim::shadowAt(p))
    for (size_t i = 0; i < n; ++i)
      if (s[i])
        return true;
#else
  (void)p, (void)n;
#endif
  return false;
}

/// Sets the definedness of the \p n bytes at \p p (initcheck).
TLC_SIM_UNCHECKED TLC_SIM_NO_SHADOW inline void mmaDefine(void *p, size_t n,
                                                          bool undefined) {
#ifdef TLC_SIM_INITCHECK
  sim::fillShadow(p, n, undefined ? 0xFF : 0);
#else
  (void)p, (void)n, (void)undefined;
#endif
}

/// The warp's product, each lane's D from the lanes' A, B and C registers.
/// Not instrumented (its shadow propagation cost more than the rest of an
/// mma.sync kernel's simulation): with initcheck an element of D is
/// undefined when its C or an element of A's row or B's column is (the
/// shadow of that element's bits in the lane's register).
template <MmaInput In, MmaAcc Acc, int K>
TLC_SIM_UNCHECKED TLC_SIM_NO_SHADOW void mmaRun(void *const *lanes, uint64_t,
                                                uint32_t, uint64_t) {
  constexpr bool eight = In == MmaInput::E4M3 || In == MmaInput::E5M2 ||
                         In == MmaInput::S8 || In == MmaInput::U8;
  constexpr int perReg = eight ? 4 : 2, bitsPer = 32 / perReg;
  constexpr int bytesPer = bitsPer / 8;
  double A[16][K], B[K][8], C[16][8];
  bool Au[16][K], Bu[K][8], Cu[16][8];
  for (int l = 0; l < 32; ++l) {
    const MmaLane *me = static_cast<const MmaLane *>(lanes[l]);
    int g = l / 4, t = l % 4;
    for (int i = 0; i < 4 * perReg; ++i) {
      uint32_t bits = me->a[i / perReg] >> (bitsPer * (i % perReg));
      int row = g + ((i % (2 * perReg)) >= perReg ? 8 : 0);
      int col = perReg * t + i % perReg + (i >= 2 * perReg ? K / 2 : 0);
      A[row][col] = mmaElement(bits, In);
      Au[row][col] = mmaUndefined(
          reinterpret_cast<const unsigned char *>(&me->a[i / perReg]) +
              bytesPer * (i % perReg),
          bytesPer);
    }
    for (int i = 0; i < 2 * perReg; ++i) {
      uint32_t bits = me->b[i / perReg] >> (bitsPer * (i % perReg));
      int row = perReg * t + i % perReg + (i >= perReg ? K / 2 : 0);
      B[row][g] = mmaElement(bits, In);
      Bu[row][g] = mmaUndefined(
          reinterpret_cast<const unsigned char *>(&me->b[i / perReg]) +
              bytesPer * (i % perReg),
          bytesPer);
    }
    for (int i = 0; i < 4; ++i) {
      int row = g + (i >= 2 ? 8 : 0), col = 2 * t + i % 2;
      if constexpr (Acc == MmaAcc::F32) {
        C[row][col] = static_cast<const float *>(me->c)[i];
        Cu[row][col] = mmaUndefined(static_cast<const float *>(me->c) + i, 4);
      } else if constexpr (Acc == MmaAcc::S32) {
        C[row][col] = static_cast<const int *>(me->c)[i];
        Cu[row][col] = mmaUndefined(static_cast<const int *>(me->c) + i, 4);
      } else {
        C[row][col] = mmaElement(static_cast<const uint32_t *>(me->c)[i / 2] >>
                                     (16 * (i % 2)),
                                 MmaInput::F16);
        Cu[row][col] =
            mmaUndefined(static_cast<const unsigned char *>(me->c) + 2 * i, 2);
      }
    }
  }
  for (int l = 0; l < 32; ++l) {
    MmaLane *me = static_cast<MmaLane *>(lanes[l]);
    int g = l / 4, t = l % 4;
    me->d[0] = me->d[1] = me->d[2] = me->d[3] = 0;
    bool undefined[4];
    for (int i = 0; i < 4; ++i) {
      int row = g + (i >= 2 ? 8 : 0), col = 2 * t + i % 2;
      undefined[i] = Cu[row][col];
      for (int k = 0; k < K; ++k)
        undefined[i] |= Au[row][k] || Bu[k][col];
      if constexpr (Acc == MmaAcc::S32) {
        int64_t sum = int64_t(C[row][col]);
        for (int k = 0; k < K; ++k)
          sum += int64_t(A[row][k]) * int64_t(B[k][col]);
        me->d[i] = uint32_t(sum); // wraps modulo 2^32 (no .satfinite)
      } else {
        double sum = C[row][col];
        for (int k = 0; k < K; ++k)
          sum += A[row][k] * B[k][col];
        if constexpr (Acc == MmaAcc::F32) {
          float f = float(sum);
          std::memcpy(&me->d[i], &f, 4);
        } else {
          me->d[i / 2] |= uint32_t(__half(float(sum)).__x) << (16 * (i % 2));
        }
      }
    }
    for (int i = 0; i < 4; ++i) {
      if constexpr (Acc == MmaAcc::F16)
        mmaDefine(reinterpret_cast<unsigned char *>(me->d) + 2 * i, 2,
                  undefined[i]);
      else
        mmaDefine(&me->d[i], 4, undefined[i]);
    }
  }
}

/// The f32 bit pattern \p bits read as tf32: sign, exponent and the 10
/// high mantissa bits.
inline double tf32Value(uint32_t bits) {
  uint32_t kept = bits & 0xffffe000u;
  float f;
  std::memcpy(&f, &kept, 4);
  return f;
}

/// m16n8k8 .tf32 -> .f32, one element per register.
TLC_SIM_UNCHECKED inline void mmaRunTF32(void *const *lanes, uint64_t, uint32_t,
                                         uint64_t) {
  double A[16][8], B[8][8], C[16][8];
  for (int l = 0; l < 32; ++l) {
    const MmaLane *me = static_cast<const MmaLane *>(lanes[l]);
    int g = l / 4, t = l % 4;
    for (int i = 0; i < 4; ++i)
      A[g + 8 * (i % 2)][t + 4 * (i / 2)] = tf32Value(me->a[i]);
    for (int i = 0; i < 2; ++i)
      B[t + 4 * i][g] = tf32Value(me->b[i]);
    for (int i = 0; i < 4; ++i)
      C[g + 8 * (i / 2)][2 * t + i % 2] = static_cast<const float *>(me->c)[i];
  }
  for (int l = 0; l < 32; ++l) {
    MmaLane *me = static_cast<MmaLane *>(lanes[l]);
    int g = l / 4, t = l % 4;
    for (int i = 0; i < 4; ++i) {
      int row = g + 8 * (i / 2), col = 2 * t + i % 2;
      double sum = C[row][col];
      for (int k = 0; k < 8; ++k)
        sum += A[row][k] * B[k][col];
      float f = float(sum);
      std::memcpy(&me->d[i], &f, 4);
    }
  }
}

/// The lane of an m8n8k4 .f64 product: its a, b and two c/d registers.
struct MmaF64Lane {
  double a, b;
  const double *c;
  double d[2];
};

TLC_SIM_UNCHECKED inline void mmaRunF64(void *const *lanes, uint64_t, uint32_t,
                                        uint64_t) {
  long double A[8][4], B[4][8], C[8][8];
  for (int l = 0; l < 32; ++l) {
    const MmaF64Lane *me = static_cast<const MmaF64Lane *>(lanes[l]);
    int g = l / 4, t = l % 4;
    A[g][t] = me->a;
    B[t][g] = me->b;
    C[g][2 * t] = me->c[0];
    C[g][2 * t + 1] = me->c[1];
  }
  for (int l = 0; l < 32; ++l) {
    MmaF64Lane *me = static_cast<MmaF64Lane *>(lanes[l]);
    int g = l / 4, t = l % 4;
    for (int i = 0; i < 2; ++i) {
      long double sum = C[g][2 * t + i];
      for (int k = 0; k < 4; ++k)
        sum += A[g][k] * B[k][2 * t + i];
      me->d[i] = double(sum);
    }
  }
}

template <MmaInput In, MmaAcc Acc, int K>
TLC_SIM_UNCHECKED void mma(uint32_t *d, int dRegs, const uint32_t *a,
                           const uint32_t *b, const void *c, const char *name,
                           uint64_t where) {
  MmaLane me{a, b, c, {0, 0, 0, 0}};
  sim::api->warpCollective(name, 0xffffffffu, &mmaRun<In, Acc, K>, &me, where);
  std::memcpy(d, me.d, 4 * dRegs);
}

} // namespace simimpl

TLC_SIM_PRIMITIVE inline void mmaM16N8K16F16F32(float *d, const uint32_t *a,
                                                const uint32_t *b,
                                                const float *c) {
  simimpl::mma<simimpl::MmaInput::F16, simimpl::MmaAcc::F32, 16>(
      reinterpret_cast<uint32_t *>(d), 4, a, b, c,
      "mma.m16n8k16.f32.f16.f16.f32", TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline void mmaM16N8K16BF16F32(float *d, const uint32_t *a,
                                                 const uint32_t *b,
                                                 const float *c) {
  simimpl::mma<simimpl::MmaInput::BF16, simimpl::MmaAcc::F32, 16>(
      reinterpret_cast<uint32_t *>(d), 4, a, b, c,
      "mma.m16n8k16.f32.bf16.bf16.f32", TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline void mmaM16N8K16F16F16(uint32_t *d, const uint32_t *a,
                                                const uint32_t *b,
                                                const uint32_t *c) {
  simimpl::mma<simimpl::MmaInput::F16, simimpl::MmaAcc::F16, 16>(
      d, 2, a, b, c, "mma.m16n8k16.f16.f16.f16.f16", TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline void
mmaM16N8K32S8S32(int *d, const uint32_t *a, const uint32_t *b, const int *c) {
  simimpl::mma<simimpl::MmaInput::S8, simimpl::MmaAcc::S32, 32>(
      reinterpret_cast<uint32_t *>(d), 4, a, b, c, "mma.m16n8k32.s32.s8.s8.s32",
      TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline void
mmaM16N8K32U8S32(int *d, const uint32_t *a, const uint32_t *b, const int *c) {
  simimpl::mma<simimpl::MmaInput::U8, simimpl::MmaAcc::S32, 32>(
      reinterpret_cast<uint32_t *>(d), 4, a, b, c, "mma.m16n8k32.s32.u8.u8.s32",
      TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline void mmaM16N8K8TF32F32(float *d, const uint32_t *a,
                                                const uint32_t *b,
                                                const float *c) {
  simimpl::MmaLane me{a, b, c, {0, 0, 0, 0}};
  sim::api->warpCollective("mma.m16n8k8.f32.tf32.tf32.f32", 0xffffffffu,
                           &simimpl::mmaRunTF32, &me, TLC_SIM_HERE);
  std::memcpy(d, me.d, 16);
}
TLC_SIM_PRIMITIVE inline void mmaM8N8K4F64(double *d, double a, double b,
                                           const double *c) {
  simimpl::MmaF64Lane me{a, b, c, {0, 0}};
  sim::api->warpCollective("mma.m8n8k4.f64.f64.f64.f64", 0xffffffffu,
                           &simimpl::mmaRunF64, &me, TLC_SIM_HERE);
  d[0] = me.d[0];
  d[1] = me.d[1];
}
TLC_SIM_PRIMITIVE inline void mmaM16N8K32E4M3F32(float *d, const uint32_t *a,
                                                 const uint32_t *b,
                                                 const float *c) {
  simimpl::mma<simimpl::MmaInput::E4M3, simimpl::MmaAcc::F32, 32>(
      reinterpret_cast<uint32_t *>(d), 4, a, b, c,
      "mma.m16n8k32.f32.e4m3.e4m3.f32", TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline void mmaM16N8K32E5M2F32(float *d, const uint32_t *a,
                                                 const uint32_t *b,
                                                 const float *c) {
  simimpl::mma<simimpl::MmaInput::E5M2, simimpl::MmaAcc::F32, 32>(
      reinterpret_cast<uint32_t *>(d), 4, a, b, c,
      "mma.m16n8k32.f32.e5m2.e5m2.f32", TLC_SIM_HERE);
}

TLC_DEVICE void mmaM16N8K16F16Acc(half *c, const uint32_t *a,
                                  const uint32_t *b) {
  uint32_t acc[2];
  std::memcpy(acc, c, sizeof(acc));
  mmaM16N8K16F16F16(acc, a, b, acc);
  std::memcpy(c, acc, sizeof(acc));
}
TLC_DEVICE void mmaM16N8K4F64(double *c, const double *a, const double *b) {
  mmaM8N8K4F64(c, a[0], b[0], c);
  mmaM8N8K4F64(c + 2, a[1], b[0], c + 2);
}

template <typename AB>
TLC_DEVICE void mmaM16N8K16(float *c, const uint32_t *a, const uint32_t *b);
template <>
TLC_DEVICE void mmaM16N8K16<half>(float *c, const uint32_t *a,
                                  const uint32_t *b) {
  mmaM16N8K16F16F32(c, a, b, c);
}
template <>
TLC_DEVICE void mmaM16N8K16<bfloat16>(float *c, const uint32_t *a,
                                      const uint32_t *b) {
  mmaM16N8K16BF16F32(c, a, b, c);
}

} // namespace cuda
} // namespace tlc

#endif // TLC_DEVICE_CUDA_MMA_H
