//===- HostTensor.cpp - Kernel tensors in host memory ---------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/runtime/HostTensor.h"

#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>

using namespace tlc::runtime;

HostTensor::HostTensor(DType dtype, std::vector<int64_t> shape)
    : dtype(std::move(dtype)), shape(std::move(shape)) {
  bytes.assign(size_t(numElements()) * this->dtype.size, 0);
}

int64_t HostTensor::numElements() const {
  int64_t n = 1;
  for (int64_t e : shape)
    n *= std::max<int64_t>(e, 0);
  return n;
}

namespace {
/// SplitMix64: a small, portable, well-mixed generator (its output is the
/// same on every platform, unlike std::normal_distribution's).
struct SplitMix64 {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in (0, 1).
  double uniform() { return (double(next() >> 11) + 0.5) * 0x1.0p-53; }
  /// Standard normal (Box-Muller).
  double normal() {
    double u = uniform(), v = uniform();
    return std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * M_PI * v);
  }
};
} // namespace

void HostTensor::fillRandom(uint64_t seed, uint64_t stream) {
  SplitMix64 rng{seed * 0x100000001B3ull + stream * 0x9E3779B97F4A7C15ull};
  int64_t n = numElements();
  for (int64_t i = 0; i < n; ++i) {
    double v;
    switch (dtype.cls) {
    case DTypeClass::Float:
      v = float(rng.normal());
      break;
    case DTypeClass::SignedInt:
      v = std::round(4.0 * rng.normal());
      break;
    case DTypeClass::UnsignedInt:
      v = double(rng.next() % 256);
      break;
    case DTypeClass::Bool:
      v = double(rng.next() & 1);
      break;
    }
    set(i, v);
  }
}

void HostTensor::poison() {
  int64_t n = numElements();
  if (!dtype.isFloat()) {
    std::fill(bytes.begin(), bytes.end(), 0);
    return;
  }
  for (int64_t i = 0; i < n; ++i)
    dtype.storeNaN(bytes.data() + i * dtype.size);
}

llvm::Error HostTensor::writeNpy(llvm::StringRef path) const {
  bool asFloat32 = dtype.npyDescr == "<f4" && dtype.size != 4;
  bool tf32 = dtype.name == "tfloat32";
  std::string header = "{'descr': '" + dtype.npyDescr +
                       "', 'fortran_order': False, 'shape': (";
  for (size_t d = 0; d < shape.size(); ++d)
    header += std::to_string(shape[d]) + (shape.size() == 1 ? "," : d + 1 < shape.size() ? ", " : "");
  header += "), }";
  // magic(6) + version(2) + length(2) + header + '\n', padded to 64.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  return llvm::writeToOutput(path, [&](llvm::raw_ostream &os) {
    os.write("\x93NUMPY\x01\x00", 8);
    uint16_t len = uint16_t(header.size());
    char lenBytes[2] = {char(len & 0xFF), char(len >> 8)};
    os.write(lenBytes, 2);
    os << header;
    if (!asFloat32 && !tf32) {
      os.write(reinterpret_cast<const char *>(bytes.data()), bytes.size());
      return llvm::Error::success();
    }
    int64_t n = numElements();
    for (int64_t i = 0; i < n; ++i) {
      float f = float(get(i));
      char b[4];
      std::memcpy(b, &f, 4);
      os.write(b, 4);
    }
    return llvm::Error::success();
  });
}

Comparison tlc::runtime::compareTensors(const HostTensor &out,
                                        const HostTensor &ref, double rtol,
                                        double atol) {
  Comparison c;
  double num = 0, den = 0;
  int64_t n = std::min(out.numElements(), ref.numElements());
  for (int64_t i = 0; i < n; ++i) {
    double o = out.get(i), r = ref.get(i);
    bool bad = false;
    if (std::isnan(r)) {
      bad = !std::isnan(o);
    } else if (std::isnan(o)) {
      ++c.nans;
      bad = true;
    } else if (std::isinf(r) || std::isinf(o)) {
      bad = o != r;
    } else {
      double d = std::fabs(o - r);
      num += d * d;
      den += r * r;
      c.maxAbsError = std::max(c.maxAbsError, d);
      bad = d > atol + rtol * std::fabs(r);
    }
    if (bad) {
      if (!std::isnan(o) || std::isnan(r))
        ++c.mismatches;
      if (c.firstBad < 0)
        c.firstBad = i;
    }
  }
  c.relativeError = den > 0 ? std::sqrt(num / den) : std::sqrt(num);
  return c;
}
