//===- wgmma.h - Warpgroup matrix products wgmma (sim) ----------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// wgmma.mma_async on the simulator, from the PTX ISA's definitions
// ("Asynchronous Warpgroup Level Matrix Shared Memory Layout", "Matrix
// Descriptor Format", "Register Fragments"):
//
//  * a matrix descriptor holds the start address >> 4 (bits 0-13), the
//    leading dimension byte offset >> 4 (16-29), the stride dimension byte
//    offset >> 4 (32-45), the base offset (49-51, must be 0 here) and the
//    swizzle mode (62-63: 1 = 128B, 2 = 64B, 3 = 32B; 0, no swizzle, is not
//    simulated and traps);
//  * an operand is made of swizzle atoms of 8 rows of S bytes (S = 128, 64,
//    32), rows along M/N for K-major operands and along K for M-/N-major
//    ones. K-major: element (mn, k) at byte start + (mn / 8) * SBO +
//    (mn % 8) * S + k * size; MN-major: start + (mn / (S / size)) * LBO +
//    (mn % (S / size)) * size + (k / 8) * SBO + (k % 8) * S. The swizzle then
//    XORs the 16-byte chunk bits 4.. of that shared address with bits 7..
//    (3 bits for 128B, 2 for 64B, 1 for 32B);
//  * D[64 x N]: warp w of the warpgroup, lane l, register r hold row
//    16 w + l / 4 + 8 ((r / 2) % 2), column 8 (r / 4) + 2 (l % 4) + r % 2;
//  * A from registers (the RS form, 16-bit types, "Matrix Fragments for
//    wgmma.mma_async.m64nNk16", multiplicand A): four 32-bit registers of
//    two elements each, a0..a7 low half first; warp w, lane l, element i
//    holds row 16 w + l / 4 + 8 ((i / 2) % 2), column 2 (l % 4) + i % 2 +
//    8 (i / 4) of the 64 x 16 A. A thread's D rows are rows its own warp
//    holds, so at the instruction each warp meets (a warp collective) and
//    every lane takes its two rows of A; at the covering wait the thread's
//    registers must still hold what they held then (the PTX ISA forbids
//    changing them before; the simulator traps if they changed).
//
// Each thread computes its own registers, so no lanes meet. Like cp.async
// here, an instruction is queued on its thread and performed (operands
// read from shared memory, D written) when a wgmma.wait_group of that
// thread covers its group: shared memory changed before then changes the
// result, as it may on the GPU. Products and their sum are exact (double)
// with one rounding to f32 per instruction.
//
// With initcheck the model is not instrumented (the shadow propagation of
// its gathers and products cost more than the rest of a TMA GEMM's
// simulation); it computes definedness itself: an element of D is undefined
// when an element of A or B its sum reads is (the shadow of the shared
// bytes, or of the A registers at the instruction) or, accumulating, when
// it was.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CUDA_WGMMA_H
#define TLC_DEVICE_CUDA_WGMMA_H

#include "tlc_device/cuda/common.h"
#include "tlc_device/cuda/mma.h"

#include <cstring>
#include <map>
#include <vector>

namespace tlc {
namespace cuda {

TLC_DEVICE uint64_t wgmmaDescriptor(const void *smemPtr, uint64_t layoutBits) {
  return layoutBits | uint64_t((sharedAddress(smemPtr) & 0x3FFFF) >> 4);
}

/// \p desc advanced by \p offset 16-byte units in its low 32 bits (the
/// device header adds them in an asm so that the sum is not hoisted).
TLC_DEVICE uint64_t wgmmaDescriptorAdd(uint64_t desc, uint32_t offset) {
  return (desc & 0xFFFFFFFF00000000ull) |
         uint64_t(uint32_t(uint32_t(desc) + offset));
}

namespace simimpl {

struct WgmmaOp {
  float *d;
  int n, k;
  MmaInput in;
  uint64_t descA, descB;
  int scaleD, transA, transB;
  uint64_t where;
  /// An f16 accumulator (`.f16.f16.f16`): d holds N/2 f16 values (N/4
  /// registers of pairs), each sum rounded to f16 once per instruction.
  bool f16Acc = false;
  /// A from registers (the RS form): this thread's registers, what they
  /// held at the instruction, and its two rows of A (row l / 4, then + 8).
  bool regA = false;
  const uint32_t *aRegs = nullptr;
  uint32_t aHeld[4] = {0, 0, 0, 0};
  double aRows[2 * 16] = {};
  /// Which of aRows were undefined at the instruction (initcheck).
  bool aRowsUndef[2 * 16] = {};
};


struct WgmmaThread {
  /// Committed groups, oldest first, and the open one.
  std::vector<std::vector<WgmmaOp>> groups;
  std::vector<WgmmaOp> open;
};

/// Per simulated thread of the block being run on this OS thread.
inline thread_local std::map<unsigned, WgmmaThread> wgmmaThreads;

/// The shared-memory offset of element (mn, k) of an operand.
TLC_SIM_UNCHECKED TLC_SIM_NO_SHADOW inline uint32_t
wgmmaOffset(uint64_t desc, bool mnMajor, int mn, int k, int size,
            uint64_t where) {
  uint32_t start = uint32_t(desc & 0x3FFF) << 4;
  uint32_t lbo = uint32_t((desc >> 16) & 0x3FFF) << 4;
  uint32_t sbo = uint32_t((desc >> 32) & 0x3FFF) << 4;
  unsigned base = unsigned((desc >> 49) & 7), mode = unsigned(desc >> 62);
  if (mode == 0)
    sim::api->trap("wgmma descriptor without swizzle is not simulated", where);
  if (base != 0)
    sim::api->trap("wgmma descriptor with a non-zero base offset is not "
                   "simulated",
                   where);
  uint32_t s = mode == 1 ? 128 : mode == 2 ? 64 : 32;
  uint32_t off;
  if (!mnMajor) {
    off = start + uint32_t(mn / 8) * sbo + uint32_t(mn % 8) * s +
          uint32_t(k * size);
  } else {
    uint32_t per = s / uint32_t(size);
    off = start + uint32_t(mn) / per * lbo + uint32_t(mn) % per * size +
          uint32_t(k / 8) * sbo + uint32_t(k % 8) * s;
  }
  uint32_t bits = mode == 1 ? 7 : mode == 2 ? 3 : 1;
  return off ^ (((off >> 7) & bits) << 4);
}

/// The 16 bytes of shared memory at \p off (one swizzle chunk: a run of
/// consecutive elements along the operand's contiguous dimension), checked
/// as a load of linear thread \p thread (the caller).
TLC_SIM_UNCHECKED TLC_SIM_NO_SHADOW inline void
wgmmaChunk(uint32_t off, unsigned char *out, unsigned thread, uint64_t where) {
  if (off % 16 || off + 16 > sim::kSharedCapacity)
    sim::api->trap("wgmma operand chunk outside shared memory or not "
                   "16-byte aligned",
                   where);
  sim::checkedLoadUnshadowed(out, sim::sharedBase() + off, 16,
                             int32_t(thread), where);
}

TLC_SIM_UNCHECKED TLC_SIM_NO_SHADOW inline double
wgmmaDecode(const unsigned char *p, int size, MmaInput in) {
  uint32_t bits =
      size == 2 ? uint32_t(p[0]) | uint32_t(p[1]) << 8 : uint32_t(p[0]);
  return mmaElement(bits, in);
}

/// Element (mn, k), k < K, of the operand for every mn in \p mns, into
/// out[i * K + k]: whole 16-byte chunks are read (K-major: K / E chunks
/// per mn; MN-major: one per k and group of E consecutive mn), E elements
/// per chunk; undef[i * K + k] says whether the element's bytes are
/// undefined. \p thread: the calling thread's linear index.
TLC_SIM_UNCHECKED TLC_SIM_NO_SHADOW inline void
wgmmaGather(uint64_t desc, bool mnMajor, const int *mns, int count, int K,
            int size, MmaInput in, double *out, bool *undef, unsigned thread,
            uint64_t where) {
  int e = 16 / size;
  unsigned char chunk[16];
  unsigned char *smemBase = sim::sharedBase();
  for (int i = 0; i < count; ++i) {
    int mn = mns[i];
    if (!mnMajor) {
      for (int k0 = 0; k0 < K; k0 += e) {
        uint32_t off = wgmmaOffset(desc, false, mn, k0, size, where);
        wgmmaChunk(off, chunk, thread, where);
        for (int j = 0; j < e; ++j) {
          out[i * K + k0 + j] = wgmmaDecode(chunk + j * size, size, in);
          undef[i * K + k0 + j] =
              mmaUndefined(smemBase + off + j * size, size);
        }
      }
    } else {
      for (int k = 0; k < K; ++k) {
        uint32_t off = wgmmaOffset(desc, true, mn - mn % e, k, size, where);
        wgmmaChunk(off, chunk, thread, where);
        out[i * K + k] = wgmmaDecode(chunk + (mn % e) * size, size, in);
        undef[i * K + k] = mmaUndefined(smemBase + off + (mn % e) * size, size);
      }
    }
  }
}

TLC_SIM_UNCHECKED TLC_SIM_NO_SHADOW inline void
wgmmaPerform(const WgmmaOp &op) {
  unsigned t = sim::linearThread();
  int w = int(t / 32) % 4, l = int(t % 32);
  int size = op.in == MmaInput::F16 || op.in == MmaInput::BF16 ? 2 : 1;
  // This thread's two rows of A and N / 4 columns of B.
  int rows[2] = {16 * w + l / 4, 16 * w + l / 4 + 8};
  int cols[64];
  for (int c = 0; c < op.n / 4; ++c)
    cols[c] = 8 * (c / 2) + 2 * (l % 4) + c % 2;
  double a[2 * 32], b[64 * 32];
  bool aUndef[2 * 32], bUndef[64 * 32];
  if (op.regA) {
    if (std::memcmp(op.aRegs, op.aHeld, sizeof(op.aHeld)) != 0)
      sim::api->trap("wgmma A registers changed before the wait_group that "
                     "covers the instruction",
                     op.where);
    std::memcpy(a, op.aRows, sizeof(op.aRows));
    std::memcpy(aUndef, op.aRowsUndef, sizeof(op.aRowsUndef));
  } else {
    wgmmaGather(op.descA, op.transA, rows, 2, op.k, size, op.in, a, aUndef, t,
                op.where);
  }
  wgmmaGather(op.descB, op.transB, cols, op.n / 4, op.k, size, op.in, b, bUndef,
              t, op.where);
  for (int r = 0; r < op.n / 2; ++r) {
    int ri = (r / 2) % 2;
    int ci = 2 * (r / 4) + r % 2;
    // Accumulator element r: a float, or the f16 at byte 2 * r.
    unsigned char *dr = op.f16Acc
                            ? reinterpret_cast<unsigned char *>(op.d) + 2 * r
                            : reinterpret_cast<unsigned char *>(&op.d[r]);
    int dBytes = op.f16Acc ? 2 : int(sizeof(float));
    bool undefined = op.scaleD && mmaUndefined(dr, dBytes);
    double acc = 0.0;
    if (op.scaleD && op.f16Acc) {
      uint16_t h;
      std::memcpy(&h, dr, 2);
      acc = mmaElement(h, MmaInput::F16);
    } else if (op.scaleD) {
      acc = double(op.d[r]);
    }
    for (int kk = 0; kk < op.k; ++kk) {
      acc += a[ri * op.k + kk] * b[ci * op.k + kk];
      undefined |= aUndef[ri * op.k + kk] || bUndef[ci * op.k + kk];
    }
    if (op.f16Acc) {
      uint16_t h = __half(float(acc)).__x;
      std::memcpy(dr, &h, 2);
    } else {
      op.d[r] = float(acc);
    }
#ifdef TLC_SIM_INITCHECK
    sim::fillShadow(dr, dBytes, undefined ? 0xFF : 0);
#endif
  }
}

TLC_SIM_UNCHECKED inline void wgmmaIssue(float *d, int n, int k, MmaInput in,
                                         uint64_t descA, uint64_t descB,
                                         int scaleD, int transA, int transB,
                                         uint64_t where, bool f16Acc = false) {
  WgmmaOp op{d, n, k, in, descA, descB, scaleD, transA, transB, where};
  op.f16Acc = f16Acc;
  wgmmaThreads[sim::linearThread()].open.push_back(op);
}

/// One lane at an RS instruction: its A registers in, its rows of A out.
struct WgmmaALane {
  const uint32_t *a;
  double rows[2 * 16];
};

/// Assembles the warp's 16 x 16 slice of A from its 32 lanes' registers
/// (PTX ISA, wgmma m64nNk16 multiplicand A) and hands each lane its rows.
template <MmaInput In>
TLC_SIM_UNCHECKED void wgmmaGatherA(void *const *lanes, uint64_t, uint32_t,
                                    uint64_t) {
  double A[16][16];
  for (int l = 0; l < 32; ++l) {
    const WgmmaALane *me = static_cast<const WgmmaALane *>(lanes[l]);
    int g = l / 4, t = l % 4;
    for (int i = 0; i < 8; ++i) {
      uint32_t bits = (me->a[i / 2] >> (16 * (i % 2))) & 0xffff;
      A[g + 8 * ((i / 2) % 2)][2 * t + i % 2 + 8 * (i / 4)] =
          mmaElement(bits, In);
    }
  }
  for (int l = 0; l < 32; ++l) {
    WgmmaALane *me = static_cast<WgmmaALane *>(lanes[l]);
    for (int kk = 0; kk < 16; ++kk) {
      me->rows[kk] = A[l / 4][kk];
      me->rows[16 + kk] = A[l / 4 + 8][kk];
    }
  }
}

template <MmaInput In>
TLC_SIM_UNCHECKED void wgmmaIssueRS(float *d, int n, const uint32_t *a,
                                    uint64_t descB, int scaleD, int transB,
                                    const char *name, uint64_t where,
                                    bool f16Acc = false) {
  WgmmaALane me{a, {}};
  sim::api->warpCollective(name, 0xffffffffu, &wgmmaGatherA<In>, &me, where);
  WgmmaOp op{d, n, 16, In, 0, descB, scaleD, 0, transB, where};
  op.f16Acc = f16Acc;
  op.regA = true;
  op.aRegs = a;
  std::memcpy(op.aHeld, a, sizeof(op.aHeld));
  std::memcpy(op.aRows, me.rows, sizeof(op.aRows));
  for (int i = 0; i < 2 * 16; ++i)
    op.aRowsUndef[i] = mmaUndefined(&me.rows[i], sizeof(double));
  wgmmaThreads[sim::linearThread()].open.push_back(op);
}

} // namespace simimpl

TLC_SIM_PRIMITIVE inline void wgmmaFence() {}

TLC_SIM_PRIMITIVE inline void wgmmaCommit() {
  simimpl::WgmmaThread &me = simimpl::wgmmaThreads[sim::linearThread()];
  me.groups.push_back(std::move(me.open));
  me.open.clear();
}

template <int N> TLC_SIM_PRIMITIVE void wgmmaWait() {
  static_assert(N >= 0, "wgmma.wait_group takes a count >= 0");
  simimpl::WgmmaThread &me = simimpl::wgmmaThreads[sim::linearThread()];
  while (me.groups.size() > size_t(N)) {
    for (const simimpl::WgmmaOp &op : me.groups.front())
      simimpl::wgmmaPerform(op);
    me.groups.erase(me.groups.begin());
  }
}

TLC_SIM_PRIMITIVE inline void fenceProxyAsyncShared() {}
template <int Regs> TLC_SIM_PRIMITIVE void setMaxNRegDec() {}
template <int Regs> TLC_SIM_PRIMITIVE void setMaxNRegInc() {}

#define TLC_SIM_WGMMA16(N, NAME, IN)                                           \
  template <int TransA, int TransB>                                            \
  TLC_SIM_PRIMITIVE void wgmmaM64N##N##K16F32##NAME(                           \
      float *d, uint64_t descA, uint64_t descB, int scaleD) {                  \
    simimpl::wgmmaIssue(d, N, 16, simimpl::MmaInput::IN, descA, descB, scaleD, \
                        TransA, TransB, TLC_SIM_HERE);                         \
  }
#define TLC_SIM_WGMMA16_F16ACC(N)                                              \
  template <int TransA, int TransB>                                            \
  TLC_SIM_PRIMITIVE void wgmmaM64N##N##K16F16F16(uint32_t *d, uint64_t descA,  \
                                                 uint64_t descB, int scaleD) { \
    simimpl::wgmmaIssue(reinterpret_cast<float *>(d), N, 16,                   \
                        simimpl::MmaInput::F16, descA, descB, scaleD, TransA,  \
                        TransB, TLC_SIM_HERE, true);                           \
  }
#define TLC_SIM_WGMMA8(N, NAME, IN)                                            \
  TLC_SIM_PRIMITIVE inline void wgmmaM64N##N##K32F32##NAME(                    \
      float *d, uint64_t descA, uint64_t descB, int scaleD) {                  \
    simimpl::wgmmaIssue(d, N, 32, simimpl::MmaInput::IN, descA, descB, scaleD, \
                        0, 0, TLC_SIM_HERE);                                   \
  }
#define TLC_SIM_WGMMA_RS(N, NAME, IN, PTX)                                     \
  template <int TransB>                                                        \
  TLC_SIM_PRIMITIVE void wgmmaM64N##N##K16F32##NAME##RS(                       \
      float *d, const uint32_t *a, uint64_t descB, int scaleD) {               \
    simimpl::wgmmaIssueRS<simimpl::MmaInput::IN>(                              \
        d, N, a, descB, scaleD, TransB,                                        \
        "wgmma.mma_async.m64n" #N "k16.f32." PTX " (A in registers)",          \
        TLC_SIM_HERE);                                                         \
  }
#define TLC_SIM_WGMMA_RS_F16ACC(N)                                             \
  template <int TransB>                                                        \
  TLC_SIM_PRIMITIVE void wgmmaM64N##N##K16F16F16RS(                            \
      uint32_t *d, const uint32_t *a, uint64_t descB, int scaleD) {            \
    simimpl::wgmmaIssueRS<simimpl::MmaInput::F16>(                             \
        reinterpret_cast<float *>(d), N, a, descB, scaleD, TransB,             \
        "wgmma.mma_async.m64n" #N "k16.f16.f16 (A in registers)",              \
        TLC_SIM_HERE, true);                                                   \
  }
#define TLC_SIM_WGMMA_ALL(N)                                                   \
  TLC_SIM_WGMMA16(N, F16, F16)                                                 \
  TLC_SIM_WGMMA16_F16ACC(N)                                                    \
  TLC_SIM_WGMMA_RS_F16ACC(N)                                                   \
  TLC_SIM_WGMMA16(N, BF16, BF16)                                               \
  TLC_SIM_WGMMA_RS(N, F16, F16, "f16")                                         \
  TLC_SIM_WGMMA_RS(N, BF16, BF16, "bf16")                                      \
  TLC_SIM_WGMMA8(N, E4M3, E4M3)                                                \
  TLC_SIM_WGMMA8(N, E5M2, E5M2)
TLC_SIM_WGMMA_ALL(8)
TLC_SIM_WGMMA_ALL(16)
TLC_SIM_WGMMA_ALL(24)
TLC_SIM_WGMMA_ALL(32)
TLC_SIM_WGMMA_ALL(40)
TLC_SIM_WGMMA_ALL(48)
TLC_SIM_WGMMA_ALL(56)
TLC_SIM_WGMMA_ALL(64)
TLC_SIM_WGMMA_ALL(72)
TLC_SIM_WGMMA_ALL(80)
TLC_SIM_WGMMA_ALL(88)
TLC_SIM_WGMMA_ALL(96)
TLC_SIM_WGMMA_ALL(104)
TLC_SIM_WGMMA_ALL(112)
TLC_SIM_WGMMA_ALL(120)
TLC_SIM_WGMMA_ALL(128)
TLC_SIM_WGMMA_ALL(136)
TLC_SIM_WGMMA_ALL(144)
TLC_SIM_WGMMA_ALL(152)
TLC_SIM_WGMMA_ALL(160)
TLC_SIM_WGMMA_ALL(168)
TLC_SIM_WGMMA_ALL(176)
TLC_SIM_WGMMA_ALL(184)
TLC_SIM_WGMMA_ALL(192)
TLC_SIM_WGMMA_ALL(200)
TLC_SIM_WGMMA_ALL(208)
TLC_SIM_WGMMA_ALL(216)
TLC_SIM_WGMMA_ALL(224)
TLC_SIM_WGMMA_ALL(232)
TLC_SIM_WGMMA_ALL(240)
TLC_SIM_WGMMA_ALL(248)
TLC_SIM_WGMMA_ALL(256)
#undef TLC_SIM_WGMMA_ALL
#undef TLC_SIM_WGMMA_RS
#undef TLC_SIM_WGMMA_RS_F16ACC
#undef TLC_SIM_WGMMA8
#undef TLC_SIM_WGMMA16

} // namespace cuda
} // namespace tlc

#endif // TLC_DEVICE_CUDA_WGMMA_H
