//===- HostTensor.h - Kernel tensors in host memory -------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A dense row-major tensor in host memory with a manifest dtype: filled with
// seeded random normal values (inputs) or NaN poison (outputs), compared
// with dtype-aware tolerances, written as NumPy `.npy` and read back from
// `.npy` files with strict header validation.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_RUNTIME_HOSTTENSOR_H
#define TLC_RUNTIME_HOSTTENSOR_H

#include "tlc/runtime/DType.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tlc::runtime {

/// How tlc-run fills an input (`--fill NAME=SPEC`): `normal(MEAN,STD)`,
/// `uniform(LO,HI)` (floats in [LO, HI)), `randint(LO,HI)` (integers in
/// [LO, HI)) or `const(V)`; values are rounded to the tensor's dtype.
struct FillSpec {
  enum class Kind { Normal, Uniform, RandInt, Constant };
  Kind kind = Kind::Normal;
  double a = 0, b = 1;
  /// Parses \p text; the error says what the accepted forms are.
  static llvm::Expected<FillSpec> parse(llvm::StringRef text);
};

/// An allocator whose value-initialising construct() leaves bytes
/// uninitialised, so a HostTensor's storage is first written (and its pages
/// first touched) by parallel loops, not by one thread's memset of
/// gigabytes.
template <typename T> struct UninitializedAllocator : std::allocator<T> {
  template <typename U> struct rebind {
    using other = UninitializedAllocator<U>;
  };
  UninitializedAllocator() = default;
  template <typename U>
  UninitializedAllocator(const UninitializedAllocator<U> &) {}
  template <typename U> void construct(U *p) {
    ::new (static_cast<void *>(p)) U;
  }
  template <typename U, typename... Args> void construct(U *p, Args &&...args) {
    ::new (static_cast<void *>(p)) U(std::forward<Args>(args)...);
  }
};

/// A host tensor. Copyable (deep copy, on every core).
struct HostTensor {
  /// Element type.
  DType dtype;
  /// Extents (row-major, dense).
  std::vector<int64_t> shape;
  /// The bytes, dtype.storageBytes(numElements()) (packed fp4: two
  /// elements a byte, element 2k in the low nibble).
  std::vector<uint8_t, UninitializedAllocator<uint8_t>> bytes;

  /// Allocates zeroed storage for \p shape (zeroed on every core).
  HostTensor(DType dtype, std::vector<int64_t> shape);
  HostTensor(const HostTensor &other);
  HostTensor &operator=(const HostTensor &other);
  HostTensor(HostTensor &&) = default;
  HostTensor &operator=(HostTensor &&) = default;
  /// The number of elements.
  int64_t numElements() const;
  /// Element \p i as a double.
  double get(int64_t i) const {
    if (dtype.isPacked()) {
      uint8_t code = uint8_t(bytes[size_t(i / 2)] >> (i % 2 * 4));
      return dtype.load(&code);
    }
    return dtype.load(bytes.data() + i * dtype.size);
  }
  /// Stores \p v (rounded to the dtype) at element \p i.
  void set(int64_t i, double v) {
    if (dtype.isPacked()) {
      uint8_t code = 0;
      dtype.store(&code, v);
      uint8_t &b = bytes[size_t(i / 2)];
      int shift = int(i % 2 * 4);
      b = uint8_t((b & ~(0xf << shift)) | (code & 0xf) << shift);
      return;
    }
    dtype.store(bytes.data() + i * dtype.size, v);
  }
  /// The data pointer.
  void *data() { return bytes.data(); }

  /// Fills with seeded pseudo-random values: floats standard normal
  /// (rounded to the dtype), signed integers round(4 * normal), unsigned
  /// integers uniform in [0, 256), bools fair coins. The same seed and
  /// stream give the same values on every machine.
  void fillRandom(uint64_t seed, uint64_t stream);
  /// Fills with the distribution \p spec, seeded as fillRandom (the same
  /// seed and stream give the same values on every machine).
  void fill(const FillSpec &spec, uint64_t seed, uint64_t stream);
  /// Sorts the elements of every row (the last axis) ascending, NaNs
  /// after numbers and the unwritten poison last, moving whole elements (a
  /// NaN's payload is kept): each row as a multiset, for comparing outputs
  /// whose order the kernel leaves free (tlc-run --verify-as-set).
  void sortRows();
  /// Fills floats with tlc-run's NaN poison (DType::storeNaN; integers
  /// with 0) so unwritten outputs show.
  void poison();
  /// Whether element \p i still holds the poison (DType::isPoison).
  bool isPoisoned(int64_t i) const {
    if (dtype.isPacked()) // no NaN to poison with
      return false;
    return dtype.isPoison(bytes.data() + i * dtype.size);
  }
  /// The shape a `.npy` file of a \p dtype tensor of \p shape has: the
  /// same, except for packed fp4 (DType::isPacked), stored as its bytes
  /// (uint8): the last extent halved, or, when it is odd (rows sharing a
  /// byte), one dimension of all the bytes. parseNpy() reads the last
  /// extent back doubled.
  static std::vector<int64_t> npyShape(const DType &dtype,
                                       llvm::ArrayRef<int64_t> shape);
  /// Writes the tensor as `.npy` (version 1.0, C order); dtypes NumPy lacks
  /// are written as float32 holding the exact values, packed fp4 as its
  /// bytes (npyShape()).
  llvm::Error writeNpy(llvm::StringRef path) const;
  /// Writes the `.npy` bytes of writeNpy() to \p os.
  void writeNpy(llvm::raw_ostream &os) const;

  /// Reads the `.npy` file at \p path as a tensor of \p dtype: see
  /// parseNpy(). Errors name the file.
  static llvm::Expected<HostTensor> readNpy(llvm::StringRef path,
                                            const DType &dtype);
  /// The shape in the header of the `.npy` file at \p path (the data is
  /// not read). Errors name the file.
  static llvm::Expected<std::vector<int64_t>>
  readNpyShape(llvm::StringRef path);
  /// Parses the `.npy` bytes \p contents (format versions 1.0, 2.0 and
  /// 3.0) as a tensor of \p dtype. The header must be the dictionary NumPy
  /// writes: 'descr' equal to \p dtype's npyDescr (any byte-order mark for
  /// one-byte types; float32 for the dtypes NumPy lacks, whose values are
  /// then rounded to \p dtype), 'fortran_order' False, 'shape' a tuple of
  /// non-negative integers, and the data exactly the bytes the shape
  /// needs. Anything else is an error that says what is wrong.
  static llvm::Expected<HostTensor> parseNpy(llvm::StringRef contents,
                                             const DType &dtype);
};

/// The result of comparing a tensor with a reference.
struct Comparison {
  /// ||out - ref||_2 / ||ref||_2 over finite reference elements (0 when
  /// the reference norm is 0 and out equals it).
  double relativeError = 0;
  /// Largest |out - ref|.
  double maxAbsError = 0;
  /// Elements outside atol + rtol * |ref|.
  int64_t mismatches = 0;
  /// Elements that are NaN where the reference is not (unwritten outputs).
  int64_t nans = 0;
  /// The first failing element's linear index, or -1.
  int64_t firstBad = -1;
  /// Elements still holding tlc-run's poison (HostTensor::poison) in both
  /// tensors, in the reference only, and in \p out only.
  int64_t bothUnwritten = 0, refOnlyUnwritten = 0, outOnlyUnwritten = 0;
  /// NaNs the reference computed (not its poison), and NaNs \p out
  /// computed where the reference has a number.
  int64_t refComputedNaNs = 0, outComputedNaNs = 0;
  /// True when there are no mismatches and no NaNs.
  bool ok() const { return mismatches == 0 && nans == 0; }
};

/// Compares \p out with \p ref (same dtype and shape) with tolerances
/// \p rtol and \p atol, in one pass on every core (runs of elements
/// decoded by DType::loadMany). With \p magnitude (the shape of \p ref),
/// element k's absolute tolerance is atol + magnitudeScale |magnitude[k]|
/// (a per-element error bound; a non-finite magnitude adds nothing).
Comparison compareTensors(const HostTensor &out, const HostTensor &ref,
                          double rtol, double atol,
                          const HostTensor *magnitude = nullptr,
                          double magnitudeScale = 0);

} // namespace tlc::runtime

#endif // TLC_RUNTIME_HOSTTENSOR_H
