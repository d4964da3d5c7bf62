//===- FuzzNpy.cpp - Fuzz target: tlc-run's .npy reader -------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Input: one byte choosing the dtype the file is read as (of the sixteen
// tlc-run knows), then the bytes of a `.npy` file. Parses it as
// `tlc-run --inputs` does (HostTensor::parseNpy); a file that is accepted
// must survive writeNpy -> parseNpy unchanged (same shape, same elements;
// NaNs may change payload).
//
//===----------------------------------------------------------------------===//

#include "tlc/runtime/HostTensor.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace tlc::runtime;

static void check(bool ok, const char *what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz-npy: %s\n", what);
    std::abort();
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char *const dtypes[] = {
      "float16", "bfloat16",      "float32",     "tfloat32",
      "float64", "float8_e4m3fn", "float8_e5m2", "int8",
      "int16",   "int32",         "int64",       "uint8",
      "uint16",  "uint32",        "uint64",      "bool"};
  if (size < 1)
    return 0;
  std::optional<DType> dtype = lookupDType(dtypes[data[0] % 16]);
  check(dtype.has_value(), "unknown dtype in the table");
  llvm::StringRef file(reinterpret_cast<const char *>(data) + 1, size - 1);
  llvm::Expected<HostTensor> t = HostTensor::parseNpy(file, *dtype);
  if (!t) {
    llvm::consumeError(t.takeError());
    return 0;
  }
  check(t->bytes.size() == size_t(t->numElements()) * dtype->size,
        "storage size differs from the shape");
  std::string again;
  llvm::raw_string_ostream os(again);
  t->writeNpy(os);
  llvm::Expected<HostTensor> back = HostTensor::parseNpy(again, *dtype);
  if (!back) {
    std::fprintf(stderr, "fuzz-npy: writeNpy output is refused: %s\n",
                 llvm::toString(back.takeError()).c_str());
    std::abort();
  }
  check(back->shape == t->shape, "round trip changed the shape");
  for (int64_t i = 0, n = t->numElements(); i < n; ++i) {
    const uint8_t *a = t->bytes.data() + i * dtype->size;
    const uint8_t *b = back->bytes.data() + i * dtype->size;
    if (std::memcmp(a, b, dtype->size) == 0)
      continue;
    check(dtype->isFloat() && std::isnan(t->get(i)) && std::isnan(back->get(i)),
          "round trip changed an element");
  }
  return 0;
}
