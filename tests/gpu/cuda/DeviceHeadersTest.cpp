//===- DeviceHeadersTest.cpp - tlc's CUDA headers and runtime on a GPU ---===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// tlc-cuda-gpu-tests KERNEL_DIR [--fault] [--bench]
//
// Loads the kernels of device_headers.cu (sm_90a cubin, compute_80 PTX) with
// tlc's runtime, runs each on fresh random inputs and compares with CPU
// loops written here from the PTX ISA's definitions, not from the helpers.
// Prints "SKIP: ..." and exits 0 when there is no driver or no device.
//
//===----------------------------------------------------------------------===//

#include "tlc/Runtime/CUDA/DriverObjects.h"
#include "tlc_cuda.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace tlc::runtime::cuda;

namespace {

int numChecks = 0, numFailures = 0;

void expect(bool ok, const std::string &what) {
  ++numChecks;
  if (!ok) {
    ++numFailures;
    std::printf("  FAIL %s\n", what.c_str());
  }
}

bool expectOk(const Status &status, const std::string &what) {
  expect(status.ok(), what + (status.ok() ? "" : ": " + status.message()));
  return status.ok();
}

std::mt19937 rng;

//===----------------------------------------------------------------------===//
// Small floats, from the IEEE-style definition: sign, `expBits` exponent
// bits with bias 2^(expBits-1) - 1, `manBits` mantissa bits, subnormals.
// e4m3fn (`fn`) has no infinities: exponent field 15 is a normal binade
// except mantissa 111 (NaN). Rounding to nearest even; `saturate` clamps
// overflow to the largest finite value, otherwise overflow is infinity.
//===----------------------------------------------------------------------===//

struct Format {
  int expBits, manBits;
  bool fn, saturate;
  int bias() const { return (1 << (expBits - 1)) - 1; }
  double maxFinite() const {
    int maxExp = (1 << expBits) - 1 - bias() - (fn ? 0 : 1);
    double maxMan = fn ? 2.0 - 2.0 * std::ldexp(1.0, -manBits)
                       : 2.0 - std::ldexp(1.0, -manBits);
    return std::ldexp(maxMan, maxExp);
  }
};
const Format kF16{5, 10, false, false}, kBF16{8, 7, false, false},
    kE4M3{4, 3, true, true}, kE5M2{5, 2, false, true};

uint32_t encode(double x, const Format &f) {
  uint32_t sign = std::signbit(x) ? 1u << (f.expBits + f.manBits) : 0;
  double a = std::fabs(x);
  int eMin = 1 - f.bias();
  if (a == 0)
    return sign;
  int e = std::max(static_cast<int>(std::floor(std::log2(a))), eMin);
  double quantum = std::ldexp(1.0, e - f.manBits);
  double r = std::nearbyint(a / quantum) * quantum; // ties to even
  if (r > f.maxFinite()) {
    if (f.saturate)
      r = f.maxFinite();
    else
      return sign | (((1u << f.expBits) - 1) << f.manBits); // infinity
  }
  if (r < std::ldexp(1.0, eMin)) // subnormal (or rounded to zero)
    return sign | static_cast<uint32_t>(r / std::ldexp(1.0, eMin - f.manBits));
  int re = static_cast<int>(std::floor(std::log2(r)));
  uint32_t man = static_cast<uint32_t>((r / std::ldexp(1.0, re) - 1.0) *
                                       std::ldexp(1.0, f.manBits));
  return sign | (static_cast<uint32_t>(re + f.bias()) << f.manBits) | man;
}

double decode(uint32_t bits, const Format &f) {
  uint32_t man = bits & ((1u << f.manBits) - 1);
  uint32_t ex = (bits >> f.manBits) & ((1u << f.expBits) - 1);
  double sign = (bits >> (f.expBits + f.manBits)) & 1 ? -1.0 : 1.0;
  if (ex == 0)
    return sign * std::ldexp(man, 1 - f.bias() - f.manBits);
  if (!f.fn && ex == (1u << f.expBits) - 1)
    return man ? NAN : sign * INFINITY;
  if (f.fn && ex == (1u << f.expBits) - 1 && man == (1u << f.manBits) - 1)
    return NAN;
  return sign * std::ldexp(1.0 + std::ldexp(man, -f.manBits),
                           static_cast<int>(ex) - f.bias());
}

//===----------------------------------------------------------------------===//
// Device plumbing
//===----------------------------------------------------------------------===//

struct Dev {
  Context *ctx;
  Module *module;
};

std::unique_ptr<Buffer> upload(const Dev &d, const void *data, size_t bytes) {
  std::unique_ptr<Buffer> b;
  if (!Buffer::create(*d.ctx, bytes, b).ok())
    return nullptr;
  if (data)
    (void)b->upload(data, bytes);
  else
    (void)b->fill(0xCD); // poison outputs
  return b;
}

template <typename T> std::vector<T> download(const Buffer &b, size_t n) {
  std::vector<T> out(n);
  (void)b.download(out.data(), n * sizeof(T));
  return out;
}

/// Launches kernel \p name with 1-D grid/block and synchronizes.
bool run(const Dev &d, const std::string &name, unsigned grid, unsigned block,
         unsigned smem, std::vector<void *> args) {
  Kernel *k = nullptr;
  if (!expectOk(d.module->getKernel(name, k), "get kernel " + name))
    return false;
  LaunchConfig cfg;
  cfg.grid[0] = grid;
  cfg.block[0] = block;
  cfg.dynamicSharedMemory = smem;
  if (!expectOk(k->launch(cfg, args.data()), "launch " + name))
    return false;
  return expectOk(d.ctx->synchronize(), "run " + name);
}

//===----------------------------------------------------------------------===//
// Tests
//===----------------------------------------------------------------------===//

void testLdmatrix(const Dev &d) {
  std::vector<uint16_t> in(32 * 8);
  for (auto &v : in)
    v = static_cast<uint16_t>(rng());
  for (int n : {1, 2, 4})
    for (bool trans : {false, true}) {
      std::string name = "ldmatrix_x" + std::to_string(n) + (trans ? "_trans" : "");
      auto bin = upload(d, in.data(), in.size() * 2);
      auto bout = upload(d, nullptr, 32 * 4 * 4);
      CUdeviceptr a = bin->address(), o = bout->address();
      if (!run(d, name, 1, 32, 0, {&a, &o}))
        continue;
      auto out = download<uint32_t>(*bout, 32 * 4);
      int bad = 0;
      for (int lane = 0; lane < 32; ++lane)
        for (int i = 0; i < n; ++i) {
          // Matrix i is rows 8i..8i+7 of `in` (row-major, 8 columns).
          auto at = [&](int r, int c) { return in[(8 * i + r) * 8 + c]; };
          int g = lane / 4, t = lane % 4;
          uint32_t lo = trans ? at(2 * t, g) : at(g, 2 * t);
          uint32_t hi = trans ? at(2 * t + 1, g) : at(g, 2 * t + 1);
          bad += out[lane * 4 + i] != (lo | hi << 16);
        }
      expect(bad == 0, name + ": " + std::to_string(bad) + " wrong registers");
    }
}

void testMma16(const Dev &d, bool bf16) {
  const Format &f = bf16 ? kBF16 : kF16;
  const int k = 64;
  std::normal_distribution<double> normal;
  for (int transA = 0; transA < 2; ++transA)
    for (int transB = 0; transB < 2; ++transB) {
      // Logical A[m][kk], B[kk][n]; stored per transA/transB.
      std::vector<double> A(16 * k), B(k * 8);
      std::vector<uint16_t> sa(16 * k), sb(k * 8);
      for (int m = 0; m < 16; ++m)
        for (int kk = 0; kk < k; ++kk) {
          uint16_t bits = encode(normal(rng), f);
          A[m * k + kk] = decode(bits, f);
          sa[transA ? kk * 16 + m : m * k + kk] = bits;
        }
      for (int kk = 0; kk < k; ++kk)
        for (int n = 0; n < 8; ++n) {
          uint16_t bits = encode(normal(rng), f);
          B[kk * 8 + n] = decode(bits, f);
          sb[transB ? n * k + kk : kk * 8 + n] = bits;
        }
      auto ba = upload(d, sa.data(), sa.size() * 2);
      auto bb = upload(d, sb.data(), sb.size() * 2);
      auto bc = upload(d, nullptr, 16 * 8 * 4);
      CUdeviceptr pa = ba->address(), pb = bb->address(), pc = bc->address();
      int kk = k, ta = transA, tb = transB;
      std::string name = std::string(bf16 ? "mma_bf16" : "mma_f16") +
                         (transA ? " A^T" : " A") + (transB ? " B^T" : " B");
      if (!run(d, bf16 ? "mma_bf16" : "mma_f16", 1, 32, (16 + 8) * k * 2,
               {&pa, &pb, &pc, &kk, &ta, &tb}))
        continue;
      auto c = download<float>(*bc, 16 * 8);
      double worst = 0;
      for (int m = 0; m < 16; ++m)
        for (int n = 0; n < 8; ++n) {
          double ref = 0, mag = 0;
          for (int q = 0; q < k; ++q) {
            ref += A[m * k + q] * B[q * 8 + n];
            mag += std::fabs(A[m * k + q] * B[q * 8 + n]);
          }
          worst = std::max(worst, std::fabs(c[m * 8 + n] - ref) / (mag + 1e-30));
        }
      expect(worst < 1e-5, name + " (k=64): relative error " + std::to_string(worst));
    }
}

/// m16n8k32 with s8 (\p fp8 null), e4m3 or e5m2 operands, against a host
/// loop over the decoded values.
void testMma8(const Dev &d, const Format *fp8) {
  std::vector<uint8_t> a(16 * 32), b(8 * 32); // A[m][k], B stored [n][k]
  std::normal_distribution<double> normal;
  for (auto *v : {&a, &b})
    for (auto &x : *v)
      x = fp8 ? encode(normal(rng), *fp8) : static_cast<uint8_t>(rng());
  auto ba = upload(d, a.data(), a.size()), bb = upload(d, b.data(), b.size());
  auto bc = upload(d, nullptr, 16 * 8 * 4);
  CUdeviceptr pa = ba->address(), pb = bb->address(), pc = bc->address();
  const char *name =
      !fp8 ? "mma_s8" : fp8 == &kE4M3 ? "mma_e4m3" : "mma_e5m2";
  if (!run(d, name, 1, 32, 0, {&pa, &pb, &pc}))
    return;
  auto ci = download<int32_t>(*bc, 16 * 8);
  auto cf = download<float>(*bc, 16 * 8);
  double worst = 0;
  int bad = 0;
  for (int m = 0; m < 16; ++m)
    for (int n = 0; n < 8; ++n) {
      double ref = 0, mag = 0;
      long long iref = 0;
      for (int q = 0; q < 32; ++q) {
        if (fp8) {
          double p = decode(a[m * 32 + q], *fp8) * decode(b[n * 32 + q], *fp8);
          ref += p;
          mag += std::fabs(p);
        } else {
          iref += static_cast<int8_t>(a[m * 32 + q]) *
                  static_cast<int8_t>(b[n * 32 + q]);
        }
      }
      if (fp8)
        worst = std::max(worst, std::fabs(cf[m * 8 + n] - ref) / (mag + 1e-30));
      else
        bad += ci[m * 8 + n] != iref;
    }
  if (fp8)
    expect(worst < 1e-3, std::string(name) + ": relative error " + std::to_string(worst));
  else
    expect(bad == 0, std::string(name) + ": " + std::to_string(bad) + " wrong");
}

void testCpAsync(const Dev &d) {
  const unsigned region = 128 * 32, total = 3 * region;
  std::vector<uint8_t> src(total);
  for (auto &v : src)
    v = static_cast<uint8_t>(rng());
  unsigned valid = region + 2000 + 7; // group 1 partly, group 2 not readable
  auto bs = upload(d, src.data(), total), bo = upload(d, nullptr, total);
  CUdeviceptr ps = bs->address(), po = bo->address();
  if (!run(d, "cp_async_groups", 1, 128, 0, {&ps, &po, &valid}))
    return;
  auto out = download<uint8_t>(*bo, total);
  int bad = 0;
  for (unsigned p = 0; p < total; ++p) {
    unsigned g = p / region, o = p % 32, base = p - o;
    uint8_t want;
    if (o >= 28)
      want = 0xAB; // never copied: the poison stays
    else if (g == 0)
      want = src[p];
    else if (o < 24)
      want = p < valid ? src[p] : 0; // zero fill after `valid`
    else
      want = base + 28 <= valid ? src[p] : 0; // all-or-nothing 4 bytes
    bad += out[p] != want;
  }
  expect(bad == 0, "cp.async groups/wait/zfill: " + std::to_string(bad) + " wrong bytes");
}

void testReductions(const Dev &d) {
  std::vector<float> in(256);
  std::vector<int> ints(256);
  std::uniform_int_distribution<int> small(-50, 50), big(-1000, 1000);
  for (int i = 0; i < 256; ++i) {
    in[i] = static_cast<float>(small(rng));
    ints[i] = big(rng);
  }
  auto bi = upload(d, in.data(), 1024), bn = upload(d, ints.data(), 1024);
  auto bo = upload(d, nullptr, 4 * 1024), bon = upload(d, nullptr, 3 * 1024);
  CUdeviceptr p0 = bi->address(), p1 = bn->address(), p2 = bo->address(),
              p3 = bon->address();
  if (!run(d, "reductions", 1, 256, 0, {&p0, &p1, &p2, &p3}))
    return;
  auto out = download<float>(*bo, 4 * 256);
  auto outi = download<int>(*bon, 3 * 256);
  // The group of `tid`: threads whose index differs only in the bits that
  // (Threads - 1) * Stride covers.
  auto group = [](int tid, int threads, int stride) {
    std::vector<int> members;
    for (int u = 0; u < 256; ++u)
      if (((u ^ tid) & ~((threads - 1) * stride)) == 0)
        members.push_back(u);
    return members;
  };
  struct Case {
    const char *name;
    int variant, threads, stride;
    char op; // s: sum, M: max, m: min, a: abs max, x: xor
    bool isInt;
  } cases[] = {
      {"warp sum 32", 0, 32, 1, 's', false},
      {"warp max 8x4", 1, 8, 4, 'M', false},
      {"warp max f16", 2, 32, 1, 'M', false},
      {"warp absmax 16x2", 3, 16, 2, 'a', false},
      {"warp int sum 4x8", 0, 4, 8, 's', true},
      {"warp int xor 16x2", 1, 16, 2, 'x', true},
      {"warp int min 2x16", 2, 2, 16, 'm', true},
  };
  for (const Case &c : cases) {
    int bad = 0;
    for (int tid = 0; tid < 256; ++tid) {
      double acc = 0;
      long long iacc = 0;
      bool first = true;
      for (int u : group(tid, c.threads, c.stride)) {
        double v = c.isInt ? ints[u] : in[u];
        if (c.op == 'a')
          v = std::fabs(v);
        if (c.op == 'x') {
          iacc = first ? ints[u] : (iacc ^ ints[u]);
        } else if (first) {
          acc = v;
        } else if (c.op == 's') {
          acc += v;
        } else if (c.op == 'M' || c.op == 'a') {
          acc = std::max(acc, v);
        } else {
          acc = std::min(acc, v);
        }
        first = false;
      }
      double got = c.isInt ? outi[c.variant * 256 + tid] : out[c.variant * 256 + tid];
      bad += c.op == 'x' ? got != iacc : got != acc;
    }
    expect(bad == 0, std::string("reduce ") + c.name + ": " + std::to_string(bad) + " wrong");
  }
}

void testVectorCopy(const Dev &d) {
  unsigned chunks = 1000, valid = 777;
  std::vector<uint8_t> src(16 * chunks);
  for (auto &v : src)
    v = static_cast<uint8_t>(rng());
  auto bs = upload(d, src.data(), src.size());
  auto b1 = upload(d, nullptr, src.size()), b2 = upload(d, nullptr, src.size()),
       b3 = upload(d, nullptr, src.size());
  CUdeviceptr s = bs->address(), o1 = b1->address(), o2 = b2->address(),
              o3 = b3->address();
  if (!run(d, "vector_copy", (chunks + 127) / 128, 128, 0,
           {&s, &o1, &o2, &o3, &chunks, &valid}))
    return;
  auto r1 = download<uint8_t>(*b1, src.size());
  auto r2 = download<uint8_t>(*b2, src.size());
  auto r3 = download<uint8_t>(*b3, src.size());
  int bad1 = 0, bad2 = 0, bad3 = 0;
  for (size_t i = 0; i < src.size(); ++i) {
    bad1 += r1[i] != src[i];
    bad2 += r2[i] != (i < 16 * valid ? src[i] : 0);
    bad3 += r3[i] != src[i];
  }
  expect(bad1 == 0, "copyVector<16>: " + std::to_string(bad1) + " wrong bytes");
  expect(bad2 == 0, "copyVectorPred<16>: " + std::to_string(bad2) + " wrong bytes");
  expect(bad3 == 0, "loadGlobalReadOnly<8/4>: " + std::to_string(bad3) + " wrong bytes");
}

void testConversions(const Dev &d) {
  std::vector<float> in = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 1.0f + 0x1p-11f,
                           1.0f + 3 * 0x1p-11f, 1.0f + 0x1p-8f, 1.0f + 3 * 0x1p-8f,
                           65504.0f, 65519.0f, 65520.0f, 1e5f, 448.0f, 464.0f,
                           500.0f, -1000.0f, 57344.0f, 61440.0f, 1e6f,
                           0x1p-24f, 0x1p-25f, 3 * 0x1p-26f, 0x1p-9f, 0x1p-10f,
                           0x1p-16f, 0x1p-17f, 3e-5f, -2.5e-3f};
  std::normal_distribution<double> normal;
  for (double scale : {1e-6, 1e-3, 1.0, 30.0, 1e3, 3e4})
    for (int i = 0; i < 200; ++i)
      in.push_back(static_cast<float>(normal(rng) * scale));
  int n = static_cast<int>(in.size());
  auto bi = upload(d, in.data(), n * 4);
  auto b16 = upload(d, nullptr, (n + 2) * 2), bb16 = upload(d, nullptr, (n + 2) * 2);
  auto b43 = upload(d, nullptr, n), b52 = upload(d, nullptr, n),
       bback = upload(d, nullptr, 16 * n);
  CUdeviceptr p[6] = {bi->address(), b16->address(), bb16->address(),
                      b43->address(), b52->address(), bback->address()};
  if (!run(d, "conversions", (n + 127) / 128, 128, 0,
           {&p[0], &p[1], &p[2], &p[3], &p[4], &p[5], &n}))
    return;
  auto f16 = download<uint16_t>(*b16, n + 2), bf = download<uint16_t>(*bb16, n + 2);
  auto e43 = download<uint8_t>(*b43, n), e52 = download<uint8_t>(*b52, n);
  auto back = download<float>(*bback, 4 * n);
  const Format *formats[4] = {&kF16, &kBF16, &kE4M3, &kE5M2};
  const char *names[4] = {"f16", "bf16", "e4m3", "e5m2"};
  for (int f = 0; f < 4; ++f) {
    int bad = 0, badBack = 0;
    std::string first;
    for (int i = 0; i < n; ++i) {
      uint32_t got = f == 0 ? f16[i] : f == 1 ? bf[i] : f == 2 ? e43[i] : e52[i];
      uint32_t want = encode(in[i], *formats[f]);
      if (got != want && first.empty()) {
        char buf[128];
        std::snprintf(buf, sizeof(buf), " (first: %a -> 0x%x, want 0x%x)",
                      in[i], got, want);
        first = buf;
      }
      bad += got != want;
      double dec = decode(want, *formats[f]);
      badBack += !(back[4 * i + f] == static_cast<float>(dec));
    }
    expect(bad == 0, std::string("f32 -> ") + names[f] + ": " +
                         std::to_string(bad) + " of " + std::to_string(n) +
                         " wrong" + first);
    expect(badBack == 0, std::string(names[f]) + " -> f32: " +
                             std::to_string(badBack) + " wrong");
  }
  expect(f16[n] == encode(in[0], kF16) && f16[n + 1] == encode(in[1], kF16) &&
             bf[n] == encode(in[0], kBF16) && bf[n + 1] == encode(in[1], kBF16),
         "packHalf2 / packBFloat162 order");
}

void testAtomics(const Dev &d) {
  int n = 4096;
  std::vector<float> in(n);
  std::uniform_int_distribution<int> small(-1000, 1000);
  for (auto &v : in)
    v = small(rng) / 8.0f; // exact sums in f32
  auto bi = upload(d, in.data(), n * 4);
  std::vector<uint8_t> zeros(4096, 0);
  auto bs = upload(d, zeros.data(), 7 * 4), bh = upload(d, zeros.data(), 8 * 2),
       bb = upload(d, zeros.data(), 64 * 2), bn = upload(d, zeros.data(), 11 * 4);
  float mm[2] = {-INFINITY, INFINITY};
  auto bm = upload(d, mm, 8);
  CUdeviceptr p[6] = {bi->address(), bs->address(), bh->address(),
                      bb->address(), bn->address(), bm->address()};
  if (!run(d, "atomics", n / 256, 256, 0,
           {&p[0], &p[1], &p[2], &p[3], &p[4], &p[5], &n}))
    return;
  auto sums = download<float>(*bs, 7);
  auto halves = download<uint16_t>(*bh, 8);
  auto bf16s = download<uint16_t>(*bb, 64);
  auto ints = download<int>(*bn, 11);
  auto maxMin = download<float>(*bm, 2);
  int bad = 0;
  for (int j = 0; j < 7; ++j) {
    double s = 0;
    for (int i = j; i < n; i += 7)
      s += in[i];
    bad += sums[j] != s;
  }
  for (int j = 0; j < 8; ++j)
    bad += decode(halves[j], kF16) != n / 8;
  for (int j = 0; j < 64; ++j)
    bad += decode(bf16s[j], kBF16) != 2.0 * (n / 64);
  for (int j = 0; j < 11; ++j) {
    long long s = 0;
    for (int i = j; i < n; i += 11)
      s += i;
    bad += ints[j] != s;
  }
  bad += maxMin[0] != *std::max_element(in.begin(), in.end());
  bad += maxMin[1] != *std::min_element(in.begin(), in.end());
  expect(bad == 0, "atomics (f32/f16/bf16/int add, f32 max/min): " +
                       std::to_string(bad) + " wrong");
}

void testRuntime(const Dev &d) {
  // > 48 KB of dynamic shared memory: the runtime raises the limit.
  unsigned words = 100 * 1024 / 4;
  uint32_t zero = 0;
  auto bo = upload(d, &zero, 4);
  CUdeviceptr po = bo->address();
  if (run(d, "big_shared", 1, 256, words * 4, {&po, &words})) {
    uint32_t want = 0;
    for (uint32_t i = 0; i < words; ++i)
      want ^= i * 2654435761u;
    expect(download<uint32_t>(*bo, 1)[0] == want, "100 KB dynamic shared memory kernel result");
  }
  Kernel *k = nullptr;
  if (d.module->getKernel("big_shared", k).ok()) {
    LaunchConfig cfg;
    cfg.block[0] = 256;
    cfg.dynamicSharedMemory = 300 * 1024;
    void *args[] = {&po, &words};
    Status s = k->launch(cfg, args);
    expect(!s.ok() && s.message().find("allows at most") != std::string::npos,
           "300 KB launch is refused readably: " + s.message());
    cfg.dynamicSharedMemory = 0;
    cfg.block[0] = 4096;
    s = k->launch(cfg, args);
    expect(!s.ok() && s.message().find("threads per block") != std::string::npos,
           "4096-thread launch is refused readably: " + s.message());
    KernelAttributes attrs;
    expect(k->getAttributes(attrs).ok() && attrs.registers > 0,
           "kernel attributes (registers " + std::to_string(attrs.registers) + ")");
  }
  Status s = d.module->getKernel("no_such_kernel", k);
  expect(!s.ok() && s.message().find("no_such_kernel") != std::string::npos,
         "missing kernel is reported: " + s.message());
  std::unique_ptr<Module> junk;
  const char garbage[] = "this is not a cubin";
  s = Module::loadImage(*d.ctx, garbage, "garbage", junk);
  expect(!s.ok() && s.message().find("garbage") != std::string::npos,
         "garbage image is reported: " + s.message());
  std::unique_ptr<Timer> timer;
  float ms = -1;
  if (expectOk(Timer::create(*d.ctx, timer), "timer")) {
    (void)timer->start();
    (void)timer->stop();
    expect(timer->elapsedMilliseconds(ms).ok() && ms >= 0, "event timing");
  }
}

/// Median device time of \p reps runs of \p body.
template <typename F> float medianMs(Context &ctx, int reps, F body) {
  std::unique_ptr<Timer> timer;
  if (!Timer::create(ctx, timer).ok())
    return -1;
  std::vector<float> times;
  for (int i = 0; i < reps + 3; ++i) {
    (void)timer->start();
    body();
    (void)timer->stop();
    float ms = 0;
    if (!timer->elapsedMilliseconds(ms).ok())
      return -1;
    if (i >= 3) // warm-up
      times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

void benchCopy(const Dev &d) {
  unsigned long long bytes = 2ull << 30; // 2 GiB read + 2 GiB written
  std::unique_ptr<Buffer> a, b;
  if (!expectOk(Buffer::create(*d.ctx, bytes, a), "bench alloc") ||
      !expectOk(Buffer::create(*d.ctx, bytes, b), "bench alloc"))
    return;
  (void)a->fill(1);
  const DynamicSymbols &s = d.ctx->driver();
  float memcpyMs = medianMs(*d.ctx, 20, [&] {
    (void)s.cuMemcpyDtoD(b->address(), a->address(), bytes);
  });
  Kernel *k = nullptr;
  if (!d.module->getKernel("copy_bandwidth", k).ok())
    return;
  CUdeviceptr pa = a->address(), pb = b->address();
  unsigned long long n = bytes / 16;
  void *args[] = {&pa, &pb, &n};
  LaunchConfig cfg;
  cfg.grid[0] = d.ctx->info().multiprocessors * 8;
  cfg.block[0] = 512;
  float kernelMs = medianMs(*d.ctx, 20, [&] { (void)k->launch(cfg, args); });
  auto gbs = [&](float ms) { return 2.0 * bytes / (ms * 1e-3) / 1e9; };
  std::printf("bench: 2 GiB device copy, median of 20 (bytes read + written):\n"
              "  cuMemcpyDtoD            %8.3f ms  %7.1f GB/s\n"
              "  tlc copyVector<16> loop %8.3f ms  %7.1f GB/s  (%.1f%% of memcpy)\n",
              memcpyMs, gbs(memcpyMs), kernelMs, gbs(kernelMs),
              100.0 * memcpyMs / kernelMs);
}

/// The CUDA emitter's elementwise_add (tests/lit/Target/CUDA/elementwise.mlir:
/// 32 x 128 tiles, 128 threads) at ragged and large sizes, against a CPU
/// loop, and its bandwidth next to cuMemcpyDtoD.
void testEmittedElementwise(Context &ctx, const std::string &cubin, bool bench) {
  std::unique_ptr<Module> module;
  Kernel *k = nullptr;
  if (!expectOk(Module::loadFile(ctx, cubin, module), "load " + cubin) ||
      !expectOk(module->getKernel("elementwise_add_kernel", k), "emitted kernel"))
    return;
  auto launch = [&](CUdeviceptr a, CUdeviceptr b, CUdeviceptr c, long long m,
                    long long n) {
    LaunchConfig cfg;
    cfg.grid[0] = static_cast<unsigned>((n + 127) / 128);
    cfg.grid[1] = static_cast<unsigned>((m + 31) / 32);
    cfg.block[0] = 128;
    cfg.dynamicSharedMemory = 32768;
    void *args[] = {&a, &b, &c, &m, &n};
    return k->launch(cfg, args);
  };
  std::normal_distribution<float> normal;
  for (auto [m, n] : {std::pair<long long, long long>{1000, 1000}, {33, 129},
                      {256, 1024}, {7, 5}}) {
    std::vector<float> a(m * n), b(m * n);
    for (auto *v : {&a, &b})
      for (float &x : *v)
        x = normal(rng);
    Dev d{&ctx, module.get()};
    auto ba = upload(d, a.data(), a.size() * 4), bb = upload(d, b.data(), b.size() * 4);
    auto bc = upload(d, nullptr, a.size() * 4); // poisoned
    std::string what = "emitted elementwise_add " + std::to_string(m) + "x" + std::to_string(n);
    if (!expectOk(launch(ba->address(), bb->address(), bc->address(), m, n), what) ||
        !expectOk(ctx.synchronize(), what))
      continue;
    auto c = download<float>(*bc, a.size());
    int bad = 0;
    for (size_t i = 0; i < a.size(); ++i)
      bad += !(c[i] == a[i] + b[i]);
    expect(bad == 0, what + ": " + std::to_string(bad) + " wrong");
  }
  if (!bench)
    return;
  long long m = 16384, n = 16384; // 1 GiB per tensor
  size_t bytes = static_cast<size_t>(m * n) * 4;
  std::unique_ptr<Buffer> a, b, c;
  if (!Buffer::create(ctx, bytes, a).ok() || !Buffer::create(ctx, bytes, b).ok() ||
      !Buffer::create(ctx, bytes, c).ok())
    return;
  (void)a->fill(0x3f);
  (void)b->fill(0x40);
  const DynamicSymbols &s = ctx.driver();
  float copyMs = medianMs(ctx, 20, [&] {
    (void)s.cuMemcpyDtoD(c->address(), a->address(), bytes);
  });
  float addMs = medianMs(ctx, 20, [&] {
    (void)launch(a->address(), b->address(), c->address(), m, n);
  });
  double copyBw = 2.0 * bytes / (copyMs * 1e-3) / 1e9;
  double addBw = 3.0 * bytes / (addMs * 1e-3) / 1e9;
  std::printf("bench: elementwise_add 16384x16384 f32 (tlc emitter, 3 GiB moved) "
              "median of 20:\n"
              "  cuMemcpyDtoD 1 GiB         %8.3f ms  %7.1f GB/s\n"
              "  tlc elementwise_add        %8.3f ms  %7.1f GB/s  (%.1f%% of copy bandwidth)\n",
              copyMs, copyBw, addMs, addBw, 100.0 * addBw / copyBw);
}

void testCAPI(const std::string &cubin) {
  int count = -1;
  expect(tlc_cuda_device_count(&count) == 0 && count >= 1, "C API device count");
  tlc_cuda_context *ctx = nullptr;
  if (tlc_cuda_context_create(0, &ctx) != 0) {
    expect(false, std::string("C API context: ") + tlc_cuda_last_error());
    return;
  }
  tlc_cuda_device_info info;
  expect(tlc_cuda_context_info(ctx, &info) == 0 && info.cc_major >= 8, "C API info");
  tlc_cuda_module *mod = nullptr;
  tlc_cuda_kernel *kern = nullptr;
  if (tlc_cuda_module_load_file(ctx, cubin.c_str(), &mod) == 0 &&
      tlc_cuda_module_get_kernel(mod, "vector_copy", &kern) == 0) {
    unsigned chunks = 64, valid = 64;
    std::vector<uint8_t> src(16 * chunks), dst(16 * chunks);
    for (auto &v : src)
      v = static_cast<uint8_t>(rng());
    tlc_cuda_buffer *bufs[4] = {};
    for (auto &b : bufs)
      tlc_cuda_buffer_create(ctx, src.size(), &b);
    tlc_cuda_buffer_upload(bufs[0], src.data(), src.size(), 0);
    uint64_t p[4];
    for (int i = 0; i < 4; ++i)
      p[i] = tlc_cuda_buffer_address(bufs[i]);
    void *args[] = {&p[0], &p[1], &p[2], &p[3], &chunks, &valid};
    unsigned grid[3] = {1, 1, 1}, block[3] = {64, 1, 1};
    int r = tlc_cuda_kernel_launch(kern, grid, block, 0, nullptr, args);
    r |= tlc_cuda_synchronize(ctx);
    r |= tlc_cuda_buffer_download(bufs[1], dst.data(), dst.size(), 0);
    expect(r == 0 && dst == src, "C API launch round trip");
    for (auto *b : bufs)
      tlc_cuda_buffer_destroy(b);
    expect(tlc_cuda_module_get_kernel(mod, "nope", &kern) != 0 &&
               std::strstr(tlc_cuda_last_error(), "nope"),
           std::string("C API error text: ") + tlc_cuda_last_error());
  } else {
    expect(false, std::string("C API module: ") + tlc_cuda_last_error());
  }
  tlc_cuda_module_destroy(mod);
  tlc_cuda_context_destroy(ctx);
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s KERNEL_DIR [--fault] [--bench]\n", argv[0]);
    return 2;
  }
  std::string dir = argv[1];
  bool fault = false, bench = false;
  for (int i = 2; i < argc; ++i) {
    fault |= std::strcmp(argv[i], "--fault") == 0;
    bench |= std::strcmp(argv[i], "--bench") == 0;
  }
  unsigned seed = std::random_device()();
  rng.seed(seed);

  std::unique_ptr<Context> ctx;
  Status s = Context::create(0, ctx);
  if (!s.ok()) {
    bool absent = s.code() == TLC_CUDA_ERROR_NO_DEVICE ||
                  s.message().find("cannot open") != std::string::npos;
    std::printf("%s: %s\n", absent ? "SKIP" : "FAIL", s.message().c_str());
    return absent ? 0 : 1;
  }
  const DeviceInfo &info = ctx->info();
  std::printf("device: %s (%s), %d SMs, %d KB opt-in shared memory/block, "
              "driver %d, seed %u\n",
              info.name.c_str(), info.archName().c_str(), info.multiprocessors,
              info.sharedMemoryPerBlockOptin / 1024, info.driverVersion, seed);

  if (fault) {
    std::unique_ptr<Module> m;
    Kernel *k = nullptr;
    if (!Module::loadFile(*ctx, dir + "/device_headers.sm_90a.cubin", m).ok() ||
        !m->getKernel("faulting", k).ok())
      return 1;
    CUdeviceptr p = 0;
    void *args[] = {&p};
    LaunchConfig cfg;
    cfg.block[0] = 32;
    Status launch = k->launch(cfg, args);
    Status sync = ctx->synchronize();
    std::printf("fault: launch %s; synchronize: %s\n",
                launch.ok() ? "ok" : launch.message().c_str(),
                sync.message().c_str());
    return !sync.ok() && sync.message().find("ILLEGAL_ADDRESS") != std::string::npos ? 0 : 1;
  }

  // sm_80 machine code must be refused on other architectures with a
  // readable message.
  if (info.ccMajor != 8 || info.ccMinor != 0) {
    std::unique_ptr<Module> m;
    Status r = Module::loadFile(*ctx, dir + "/device_headers.sm_80.cubin", m);
    expect(!r.ok() && r.message().find("compiled for") != std::string::npos,
           "sm_80 cubin refused on " + info.archName() + ": " + r.message());
    std::printf("sm_80 cubin on %s: %s\n", info.archName().c_str(), r.message().c_str());
  }

  struct Flavor {
    const char *file;
    bool fp8;
  } flavors[] = {{"device_headers.sm_90a.cubin", true},
                 {"device_headers.compute_80.ptx", false}};
  for (const Flavor &f : flavors) {
    if (std::string(f.file).find("sm_90a") != std::string::npos && info.ccMajor != 9)
      continue;
    std::unique_ptr<Module> module;
    std::printf("== %s\n", f.file);
    if (!expectOk(Module::loadFile(*ctx, dir + "/" + f.file, module), f.file))
      continue;
    Dev d{ctx.get(), module.get()};
    int before = numFailures;
    testLdmatrix(d);
    testMma16(d, false);
    testMma16(d, true);
    testMma8(d, nullptr);
    if (f.fp8) {
      testMma8(d, &kE4M3);
      testMma8(d, &kE5M2);
    }
    testCpAsync(d);
    testReductions(d);
    testVectorCopy(d);
    testConversions(d);
    testAtomics(d);
    testRuntime(d);
    if (bench && f.fp8)
      benchCopy(d);
    std::printf("   %s\n", numFailures == before ? "all passed" : "FAILURES above");
  }
  testCAPI(dir + "/device_headers." + (info.ccMajor == 9 ? "sm_90a.cubin" : "compute_80.ptx"));
  {
    std::vector<char> probe;
    std::string emitted = dir + "/elementwise_add." +
                          (info.ccMajor == 9 ? "sm_90a.cubin" : "compute_80.ptx");
    if (readFile(emitted, probe).ok()) {
      std::printf("== %s (CUDA emitter output)\n", emitted.c_str());
      testEmittedElementwise(*ctx, emitted, bench);
    }
  }
  std::printf("%d checks, %d failures\n", numChecks, numFailures);
  return numFailures ? 1 : 0;
}
