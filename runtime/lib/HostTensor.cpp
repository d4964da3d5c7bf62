//===- HostTensor.cpp - Kernel tensors in host memory ---------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/runtime/HostTensor.h"
#include "tlc/runtime/Parallel.h"

#include "tlc_device/cpu.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <tuple>
#include <vector>

using namespace tlc::runtime;
namespace cpu = tlc::cpu;

HostTensor::HostTensor(DType dtype, std::vector<int64_t> shape)
    : dtype(std::move(dtype)), shape(std::move(shape)) {
  bytes.resize(this->dtype.storageBytes(numElements()));
  uint8_t *data = bytes.data();
  parallelChunks(int64_t(bytes.size()),
                 [&](int64_t, int64_t begin, int64_t end) {
                   std::memset(data + begin, 0, size_t(end - begin));
                 });
}

HostTensor::HostTensor(const HostTensor &other)
    : dtype(other.dtype), shape(other.shape) {
  bytes.resize(other.bytes.size());
  if (!bytes.empty())
    parallelCopy(bytes.data(), other.bytes.data(), bytes.size());
}

HostTensor &HostTensor::operator=(const HostTensor &other) {
  if (this == &other)
    return *this;
  dtype = other.dtype;
  shape = other.shape;
  bytes.resize(other.bytes.size());
  if (!bytes.empty())
    parallelCopy(bytes.data(), other.bytes.data(), bytes.size());
  return *this;
}

int64_t HostTensor::numElements() const {
  if (llvm::any_of(shape, [](int64_t e) { return e <= 0; }))
    return 0;
  int64_t n = 1;
  for (int64_t e : shape)
    n *= e;
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
  const uint64_t start =
      seed * 0x100000001B3ull + stream * 0x9E3779B97F4A7C15ull;
  // Element i draws `draws` numbers starting with the generator's
  // (i * draws)-th, and SplitMix64 can start anywhere in its sequence, so
  // chunks fill in parallel with exactly the values of one sequential pass.
  const uint64_t draws =
      dtype.cls == DTypeClass::Float || dtype.cls == DTypeClass::SignedInt ? 2
                                                                           : 1;
  const int64_t n = numElements();
  auto fill = [&](int64_t begin, int64_t end) {
    SplitMix64 rng{start + uint64_t(begin) * draws * 0x9E3779B97F4A7C15ull};
    // The common float dtypes written directly (the values DType::store
    // writes, without its switch per element).
    if (dtype.code == DTypeCode::F32) {
      auto *out = reinterpret_cast<float *>(bytes.data());
      for (int64_t i = begin; i < end; ++i)
        out[i] = float(rng.normal());
      return;
    }
    if (dtype.code == DTypeCode::F16 || dtype.code == DTypeCode::BF16) {
      bool half = dtype.code == DTypeCode::F16;
      for (int64_t i = begin; i < end; ++i) {
        float f = float(rng.normal());
        uint16_t b = half ? cpu::floatToHalfBits(f)
                          : cpu::floatToBFloat16Bits(f);
        std::memcpy(bytes.data() + 2 * i, &b, 2);
      }
      return;
    }
    for (int64_t i = begin; i < end; ++i) {
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
  };
  parallelChunks(n, [&](int64_t, int64_t begin, int64_t end) {
    fill(begin, end);
  });
}

llvm::Expected<FillSpec> FillSpec::parse(llvm::StringRef text) {
  auto bad = [&](const llvm::Twine &why) {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "fill '" + text + "': " + why +
            " (expected normal(MEAN,STD), uniform(LO,HI), randint(LO,HI) or "
            "const(V))");
  };
  llvm::StringRef t = text.trim();
  auto [name, rest] = t.split('(');
  if (!rest.consume_back(")"))
    return bad("no argument list");
  llvm::SmallVector<llvm::StringRef, 2> args;
  rest.split(args, ',');
  std::vector<double> v;
  for (llvm::StringRef a : args) {
    double d;
    if (a.trim().getAsDouble(d) || !std::isfinite(d))
      return bad("'" + a.trim() + "' is not a finite number");
    v.push_back(d);
  }
  FillSpec spec;
  name = name.trim();
  if (name == "normal")
    spec.kind = Kind::Normal;
  else if (name == "uniform")
    spec.kind = Kind::Uniform;
  else if (name == "randint")
    spec.kind = Kind::RandInt;
  else if (name == "const")
    spec.kind = Kind::Constant;
  else
    return bad("unknown distribution '" + name + "'");
  size_t want = spec.kind == Kind::Constant ? 1 : 2;
  if (v.size() != want)
    return bad(name + " takes " + llvm::Twine(want) + " number" +
               (want == 1 ? "" : "s"));
  spec.a = v[0];
  spec.b = want == 2 ? v[1] : 0;
  if (spec.kind == Kind::Normal && spec.b < 0)
    return bad("a standard deviation is not negative");
  if ((spec.kind == Kind::Uniform || spec.kind == Kind::RandInt) &&
      !(spec.a < spec.b))
    return bad("the range is empty (LO must be below HI)");
  if (spec.kind == Kind::RandInt &&
      (spec.a != std::floor(spec.a) || spec.b != std::floor(spec.b)))
    return bad("randint's bounds are integers");
  return spec;
}

void HostTensor::fill(const FillSpec &spec, uint64_t seed, uint64_t stream) {
  const uint64_t start =
      seed * 0x100000001B3ull + stream * 0x9E3779B97F4A7C15ull;
  // Two draws per element, so chunks fill in parallel with the values of
  // one sequential pass (as fillRandom).
  parallelChunks(numElements(), [&](int64_t, int64_t begin, int64_t end) {
    SplitMix64 rng{start + uint64_t(begin) * 2 * 0x9E3779B97F4A7C15ull};
    for (int64_t i = begin; i < end; ++i) {
      double v = 0;
      switch (spec.kind) {
      case FillSpec::Kind::Normal:
        v = spec.a + spec.b * rng.normal();
        break;
      case FillSpec::Kind::Uniform:
        v = spec.a + (spec.b - spec.a) * rng.uniform();
        rng.next();
        break;
      case FillSpec::Kind::RandInt:
        v = std::min(spec.b - 1,
                     std::floor(spec.a + (spec.b - spec.a) * rng.uniform()));
        rng.next();
        break;
      case FillSpec::Kind::Constant:
        v = spec.a;
        break;
      }
      set(i, v);
    }
  });
}

void HostTensor::sortRows() {
  HostTensor &t = *this;
  int64_t n = t.numElements();
  int64_t row = t.shape.empty() ? 1 : std::max<int64_t>(t.shape.back(), 1);
  for (int64_t begin = 0; begin < n; begin += row) {
    // Sort element bytes by (poisoned, value), so the poison payload and
    // NaNs survive the permutation unchanged.
    std::vector<int64_t> order(static_cast<size_t>(row));
    for (int64_t k = 0; k < row; ++k)
      order[size_t(k)] = begin + k;
    auto key = [&](int64_t k) {
      double v = t.get(k);
      return std::make_tuple(t.isPoisoned(k), std::isnan(v), v);
    };
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t x, int64_t y) { return key(x) < key(y); });
    std::vector<uint8_t> sorted(static_cast<size_t>(row) * t.dtype.size);
    for (int64_t k = 0; k < row; ++k)
      std::memcpy(sorted.data() + k * t.dtype.size,
                  t.bytes.data() + order[size_t(k)] * t.dtype.size,
                  t.dtype.size);
    std::memcpy(t.bytes.data() + begin * t.dtype.size, sorted.data(),
                sorted.size());
  }
}

void HostTensor::poison() {
  int64_t n = numElements();
  if (n == 0)
    return;
  // fp4 has no NaN: every nibble gets storeNaN's +6 (0x77 a byte);
  // int4 and uint4 get zero, as the wider integers.
  if (dtype.isPacked()) {
    std::fill(bytes.begin(), bytes.end(),
              uint8_t(dtype.isFloat() ? 0x77 : 0));
    return;
  }
  // One poisoned element, repeated (integers: zero).
  uint8_t pattern[8] = {};
  if (dtype.isFloat())
    dtype.storeNaN(pattern);
  const size_t size = dtype.size;
  uint8_t *data = bytes.data();
  // A typed fill per element size (a vectorised store loop, not a memcpy
  // call per element).
  auto fillAs = [&](auto word) {
    using Word = decltype(word);
    std::memcpy(&word, pattern, sizeof(Word));
    parallelChunks(n, [&](int64_t, int64_t begin, int64_t end) {
      Word *w = reinterpret_cast<Word *>(data);
      std::fill(w + begin, w + end, word);
    });
  };
  switch (size) {
  case 1:
    return fillAs(uint8_t());
  case 2:
    return fillAs(uint16_t());
  case 4:
    return fillAs(uint32_t());
  case 8:
    return fillAs(uint64_t());
  default:
    break;
  }
  parallelChunks(n, [&](int64_t, int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i)
      std::memcpy(data + i * size, pattern, size);
  });
}

std::vector<int64_t> HostTensor::npyShape(const DType &dtype,
                                          llvm::ArrayRef<int64_t> shape) {
  std::vector<int64_t> s(shape.begin(), shape.end());
  if (!dtype.isPacked())
    return s;
  // Rows of an odd extent share bytes: the whole buffer as one row.
  if (s.empty() || s.back() % 2) {
    int64_t n = 1;
    for (int64_t e : shape)
      n *= e;
    return {int64_t(dtype.storageBytes(n))};
  }
  s.back() /= 2;
  return s;
}

void HostTensor::writeNpy(llvm::raw_ostream &os) const {
  bool asFloat32 = dtype.npyDescr == "<f4" && dtype.size != 4;
  bool tf32 = dtype.name == "tfloat32";
  std::string header =
      "{'descr': '" + dtype.npyDescr + "', 'fortran_order': False, 'shape': (";
  // Packed fp4: the bytes as uint8, the last extent halved (rounded up).
  std::vector<int64_t> fileShape = npyShape(dtype, shape);
  for (size_t d = 0; d < fileShape.size(); ++d)
    header += std::to_string(fileShape[d]) +
              (fileShape.size() == 1      ? ","
               : d + 1 < fileShape.size() ? ", "
                                          : "");
  header += "), }";
  // magic(6) + version(2) + length(2) + header + '\n', padded to 64.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  os.write("\x93NUMPY\x01\x00", 8);
  uint16_t len = uint16_t(header.size());
  char lenBytes[2] = {char(len & 0xFF), char(len >> 8)};
  os.write(lenBytes, 2);
  os << header;
  if (!asFloat32 && !tf32) {
    os.write(reinterpret_cast<const char *>(bytes.data()), bytes.size());
    return;
  }
  int64_t n = numElements();
  for (int64_t i = 0; i < n; ++i) {
    float f = float(get(i));
    char b[4];
    std::memcpy(b, &f, 4);
    os.write(b, 4);
  }
}

llvm::Error HostTensor::writeNpy(llvm::StringRef path) const {
  return llvm::writeToOutput(path, [&](llvm::raw_ostream &os) {
    writeNpy(os);
    return llvm::Error::success();
  });
}

namespace {

llvm::Error npyError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

/// The header dictionary of a `.npy` file: a Python literal of the form
/// NumPy writes ({'descr': '<f4', 'fortran_order': False, 'shape': (2, 3),}),
/// parsed strictly (no expressions, no escapes in strings).
struct NpyHeader {
  std::string descr;
  bool fortranOrder = false;
  std::vector<int64_t> shape;
};

class NpyHeaderParser {
public:
  explicit NpyHeaderParser(llvm::StringRef text) : text(text) {}

  llvm::Expected<NpyHeader> parse() {
    NpyHeader h;
    bool sawDescr = false, sawOrder = false, sawShape = false;
    if (!consume('{'))
      return fail("the header is not a dictionary ('{' expected)");
    while (!peek('}')) {
      std::string key;
      if (llvm::Error e = parseString(key))
        return std::move(e);
      if (!consume(':'))
        return fail("':' expected after '" + key + "'");
      if (key == "descr") {
        if (sawDescr)
          return fail("'descr' appears twice");
        sawDescr = true;
        if (peek('['))
          return fail("structured dtypes (a list as 'descr') are not "
                      "supported");
        if (llvm::Error e = parseString(h.descr))
          return std::move(e);
      } else if (key == "fortran_order") {
        if (sawOrder)
          return fail("'fortran_order' appears twice");
        sawOrder = true;
        if (consumeWord("True"))
          h.fortranOrder = true;
        else if (!consumeWord("False"))
          return fail("'fortran_order' is not True or False");
      } else if (key == "shape") {
        if (sawShape)
          return fail("'shape' appears twice");
        sawShape = true;
        if (llvm::Error e = parseShape(h.shape))
          return std::move(e);
      } else {
        return fail("unknown key '" + key +
                    "' (expected 'descr', "
                    "'fortran_order' and 'shape')");
      }
      if (!consume(','))
        break;
    }
    if (!consume('}'))
      return fail("',' or '}' expected");
    skipSpace();
    if (pos != text.size())
      return fail("text after the dictionary");
    if (!sawDescr || !sawOrder || !sawShape)
      return fail(std::string("the header lacks '") +
                  (!sawDescr   ? "descr"
                   : !sawOrder ? "fortran_order"
                               : "shape") +
                  "'");
    return h;
  }

private:
  llvm::StringRef text;
  size_t pos = 0;

  llvm::Error fail(const llvm::Twine &msg) {
    return npyError("bad .npy header at byte " + llvm::Twine(pos) + ": " + msg);
  }
  void skipSpace() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' ||
                                 text[pos] == '\n' || text[pos] == '\r'))
      ++pos;
  }
  bool peek(char c) {
    skipSpace();
    return pos < text.size() && text[pos] == c;
  }
  bool consume(char c) {
    if (!peek(c))
      return false;
    ++pos;
    return true;
  }
  bool consumeWord(llvm::StringRef word) {
    skipSpace();
    if (!text.substr(pos).starts_with(word))
      return false;
    size_t end = pos + word.size();
    if (end < text.size() && (llvm::isAlnum(text[end]) || text[end] == '_'))
      return false;
    pos = end;
    return true;
  }
  llvm::Error parseString(std::string &out) {
    skipSpace();
    if (pos >= text.size() || (text[pos] != '\'' && text[pos] != '"'))
      return fail("a quoted string expected");
    char quote = text[pos++];
    size_t end = text.find(quote, pos);
    if (end == llvm::StringRef::npos)
      return fail("unterminated string");
    llvm::StringRef body = text.slice(pos, end);
    if (body.contains('\\') || body.contains('\n'))
      return fail("escapes and newlines in strings are not supported");
    out = body.str();
    pos = end + 1;
    return llvm::Error::success();
  }
  llvm::Error parseShape(std::vector<int64_t> &shape) {
    if (!consume('('))
      return fail("'shape' is not a tuple");
    bool comma = false;
    while (!peek(')')) {
      skipSpace();
      size_t begin = pos;
      while (pos < text.size() && llvm::isDigit(text[pos]))
        ++pos;
      llvm::StringRef digits = text.slice(begin, pos);
      if (digits.empty())
        return fail("'shape' holds something other than non-negative "
                    "integers");
      int64_t v;
      if (digits.getAsInteger(10, v) || v < 0)
        return fail("extent " + digits + " is too large");
      shape.push_back(v);
      if (shape.size() > 64)
        return fail("more than 64 dimensions");
      comma = consume(',');
      if (!comma)
        break;
    }
    if (!consume(')'))
      return fail("',' or ')' expected in 'shape'");
    // (3) is the integer 3 in Python, not a tuple.
    if (shape.size() == 1 && !comma)
      return fail("'shape' is not a tuple (a one-element tuple is (N,))");
    return llvm::Error::success();
  }
};

/// Whether the file's descr \p file stores elements as \p want does: the
/// same kind and size, little-endian ('<'), native ('=') or, for one-byte
/// types, any byte order.
bool sameDescr(llvm::StringRef file, llvm::StringRef want) {
  if (file.size() < 2 || want.size() < 2)
    return false;
  if (file.drop_front() != want.drop_front())
    return false;
  bool oneByte = want.drop_front(2) == "1";
  return file[0] == '<' || file[0] == '=' ||
         (oneByte && (file[0] == '|' || file[0] == '>'));
}

} // namespace

/// The header of the `.npy` bytes \p contents; \p dataStart is set to the
/// offset of the data.
static llvm::Expected<NpyHeader> parseNpyHeader(llvm::StringRef contents,
                                                size_t &dataStart) {
  if (!contents.starts_with("\x93NUMPY"))
    return npyError("not a .npy file (no \\x93NUMPY magic)");
  if (contents.size() < 10)
    return npyError("truncated .npy header");
  unsigned major = uint8_t(contents[6]), minor = uint8_t(contents[7]);
  if (major < 1 || major > 3 || minor != 0)
    return npyError("unsupported .npy format version " + llvm::Twine(major) +
                    "." + llvm::Twine(minor) + " (1.0, 2.0 and 3.0 are)");
  size_t lenBytes = major == 1 ? 2 : 4;
  if (contents.size() < 8 + lenBytes)
    return npyError("truncated .npy header");
  uint64_t headerLen = 0;
  for (size_t i = 0; i < lenBytes; ++i)
    headerLen |= uint64_t(uint8_t(contents[8 + i])) << (8 * i);
  dataStart = 8 + lenBytes;
  if (headerLen > contents.size() - dataStart)
    return npyError("the header length " + llvm::Twine(headerLen) +
                    " runs past the end of the file (" +
                    llvm::Twine(contents.size()) + " bytes)");
  llvm::StringRef headerText = contents.substr(dataStart, headerLen);
  dataStart += headerLen;
  return NpyHeaderParser(headerText).parse();
}

llvm::Expected<HostTensor> HostTensor::parseNpy(llvm::StringRef contents,
                                                const DType &dtype) {
  size_t dataStart = 0;
  auto header = parseNpyHeader(contents, dataStart);
  if (!header)
    return header.takeError();
  if (header->fortranOrder)
    return npyError("the array is in Fortran order; save a C-order array "
                    "(numpy.ascontiguousarray)");
  if (!sameDescr(header->descr, dtype.npyDescr)) {
    std::string hint;
    if (header->descr.size() > 2 && header->descr[0] == '>')
      hint = " (the file is big-endian)";
    return npyError("dtype '" + header->descr + "' where " + dtype.name +
                    " needs '" + dtype.npyDescr + "'" + hint);
  }
  size_t fileElemSize = 0;
  if (llvm::StringRef(header->descr)
          .drop_front(2)
          .getAsInteger(10, fileElemSize) ||
      fileElemSize == 0)
    return npyError("dtype '" + header->descr + "' has no element size");
  // The data must be exactly numElements * fileElemSize bytes.
  uint64_t dataBytes = contents.size() - dataStart;
  uint64_t elems = 1;
  // The non-zero extents must multiply to an int64 even when another
  // extent is 0 (numElements() multiplies them all; found by tlc-fuzz-npy).
  for (int64_t e : header->shape)
    if (e != 0 && (__builtin_mul_overflow(elems, uint64_t(e), &elems) ||
                   elems > uint64_t(INT64_MAX)))
      return npyError("the shape's element count overflows");
  if (llvm::is_contained(header->shape, 0))
    elems = 0;
  uint64_t want = 0;
  bool overflow = __builtin_mul_overflow(elems, uint64_t(fileElemSize), &want);
  if (overflow || want != dataBytes) {
    std::string shape;
    for (int64_t e : header->shape)
      shape += (shape.empty() ? "" : ", ") + std::to_string(e);
    return npyError(
        "shape (" + shape + ") of '" + header->descr + "' needs " +
        (overflow ? std::string("more than 2^64") : std::to_string(want)) +
        " bytes of data; the file has " + std::to_string(dataBytes));
  }
  std::vector<int64_t> shape = header->shape;
  if (dtype.isPacked() && !shape.empty())
    shape.back() *= 2; // two elements a byte
  HostTensor t(dtype, shape);
  const char *data = contents.data() + dataStart;
  if ((fileElemSize == dtype.size && dtype.name != "tfloat32") ||
      dtype.isPacked()) {
    if (dataBytes) // data() of an empty vector may be null.
      std::memcpy(t.bytes.data(), data, dataBytes);
    if (dtype.cls == DTypeClass::Bool)
      for (uint8_t &b : t.bytes)
        b = b != 0;
    return t;
  }
  // float32 on disk for a dtype NumPy lacks: round each value to it.
  for (uint64_t i = 0; i < elems; ++i) {
    float f;
    std::memcpy(&f, data + 4 * i, 4);
    t.set(int64_t(i), f);
  }
  return t;
}

llvm::Expected<HostTensor> HostTensor::readNpy(llvm::StringRef path,
                                               const DType &dtype) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return llvm::createStringError(buffer.getError(),
                                   "cannot read '" + path +
                                       "': " + buffer.getError().message());
  auto t = parseNpy((*buffer)->getBuffer(), dtype);
  if (!t)
    return npyError(path + ": " + llvm::toString(t.takeError()));
  return t;
}

llvm::Expected<std::vector<int64_t>>
HostTensor::readNpyShape(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return llvm::createStringError(buffer.getError(),
                                   "cannot read '" + path +
                                       "': " + buffer.getError().message());
  size_t dataStart = 0;
  auto header = parseNpyHeader((*buffer)->getBuffer(), dataStart);
  if (!header)
    return npyError(path + ": " + llvm::toString(header.takeError()));
  return header->shape;
}

Comparison tlc::runtime::compareTensors(const HostTensor &out,
                                        const HostTensor &ref, double rtol,
                                        double atol,
                                        const HostTensor *magnitude,
                                        double magnitudeScale) {
  // Per chunk of parallelChunks, combined in chunk order (the same sums on
  // every host).
  struct Part {
    Comparison c;
    double num = 0, den = 0;
  };
  int64_t n = std::min(out.numElements(), ref.numElements());
  if (magnitude && magnitude->numElements() < n)
    magnitude = nullptr;
  std::vector<Part> parts(size_t(numParallelChunks(n)));
  parallelChunks(n, [&](int64_t chunk, int64_t begin, int64_t end) {
    Part &p = parts[size_t(chunk)];
    Comparison &c = p.c;
    // Runs of elements decoded at once (packed dtypes one by one).
    constexpr int64_t kRun = 256;
    double ov[kRun], rv[kRun], mv[kRun];
    bool op[kRun], rp[kRun], mp[kRun];
    auto decode = [](const HostTensor &t, int64_t at, int64_t len, double *v,
                     bool *poisoned) {
      if (!t.dtype.isPacked())
        return t.dtype.loadMany(t.bytes.data() + at * int64_t(t.dtype.size),
                                len, v, poisoned);
      for (int64_t k = 0; k < len; ++k) {
        v[k] = t.get(at + k);
        poisoned[k] = t.isPoisoned(at + k);
      }
    };
    for (int64_t run = begin; run < end; run += kRun) {
      int64_t len = std::min(kRun, end - run);
      decode(out, run, len, ov, op);
      decode(ref, run, len, rv, rp);
      if (magnitude)
        decode(*magnitude, run, len, mv, mp);
      for (int64_t k = 0; k < len; ++k) {
        double o = ov[k], r = rv[k];
        bool rNaN = std::isnan(r), oNaN = std::isnan(o);
        c.bothUnwritten += rp[k] && op[k];
        c.refOnlyUnwritten += rp[k] && !op[k];
        c.outOnlyUnwritten += op[k] && !rp[k];
        c.refComputedNaNs += rNaN && !rp[k];
        c.outComputedNaNs += !op[k] && !rNaN && oNaN;
        bool bad = false;
        if (rNaN) {
          bad = !oNaN;
        } else if (oNaN) {
          ++c.nans;
          bad = true;
        } else if (std::isinf(r) || std::isinf(o)) {
          bad = o != r;
        } else {
          double d = std::fabs(o - r);
          p.num += d * d;
          p.den += r * r;
          c.maxAbsError = std::max(c.maxAbsError, d);
          double extra = magnitude && std::isfinite(mv[k]) && !mp[k]
                             ? magnitudeScale * std::fabs(mv[k])
                             : 0.0;
          bad = d > atol + extra + rtol * std::fabs(r);
        }
        if (bad) {
          if (!oNaN || rNaN)
            ++c.mismatches;
          if (c.firstBad < 0)
            c.firstBad = run + k;
        }
      }
    }
  });
  Comparison c;
  double num = 0, den = 0;
  for (const Part &p : parts) {
    num += p.num;
    den += p.den;
    c.maxAbsError = std::max(c.maxAbsError, p.c.maxAbsError);
    c.mismatches += p.c.mismatches;
    c.nans += p.c.nans;
    c.bothUnwritten += p.c.bothUnwritten;
    c.refOnlyUnwritten += p.c.refOnlyUnwritten;
    c.outOnlyUnwritten += p.c.outOnlyUnwritten;
    c.refComputedNaNs += p.c.refComputedNaNs;
    c.outComputedNaNs += p.c.outComputedNaNs;
    if (c.firstBad < 0)
      c.firstBad = p.c.firstBad;
  }
  c.relativeError = den > 0 ? std::sqrt(num / den) : std::sqrt(num);
  return c;
}
