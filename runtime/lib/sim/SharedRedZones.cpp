//===- SharedRedZones.cpp - Per-buffer bounds of shared memory (sim) ------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "SharedRedZones.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

#include <algorithm>
#include <optional>
#include <set>

using namespace tlc::runtime::sim;
using llvm::StringRef;

uint32_t SharedRedZonePlan::printedOffset(uint32_t offset) const {
  uint32_t added = 0;
  for (const SharedRedZone &z : zones)
    if (z.end <= offset)
      added += kRedZoneBytes;
  return offset - added;
}

namespace {

/// One `smem + N` of a kernel: where it is and what it places.
struct Placement {
  size_t line = 0;
  uint32_t offset = 0;
  /// 0: not known (the printer's own areas, a type or shape not read here).
  uint64_t bytes = 0, elemBytes = 0;
  std::string name;
};

/// Bytes of one element of the printers' shared storage types (0: unknown).
uint64_t storageBytes(StringRef type) {
  type = type.trim();
  if (type == "float" || type == "int32_t" || type == "uint32_t" ||
      type == "int" || type == "unsigned")
    return 4;
  if (type == "double" || type == "int64_t" || type == "uint64_t")
    return 8;
  if (type == "int16_t" || type == "uint16_t" || type.ends_with("::half") ||
      type.ends_with("::bfloat16"))
    return 2;
  if (type == "int8_t" || type == "uint8_t" || type == "char" ||
      type == "unsigned char" || type == "signed char" || type == "bool")
    return 1;
  return 0;
}

/// The entry a `__global__` line declares: the first called-looking name
/// that is not an attribute (`__launch_bounds__(...)`, `__cluster_dims__`).
std::string entryName(StringRef line) {
  static const llvm::Regex call("([A-Za-z_][A-Za-z0-9_]*)\\(");
  StringRef rest = line.substr(line.find("__global__"));
  llvm::SmallVector<StringRef, 2> m;
  while (call.match(rest, &m)) {
    if (!m[1].starts_with("__") && !m[1].starts_with("amdgpu"))
      return m[1].str();
    rest = rest.substr(rest.find(m[0]) + m[0].size());
  }
  return "";
}

/// The buffer size a `// T.alloc [shape] shared...` line gives with
/// elements of \p elem bytes (0: not such a line, or a symbolic shape).
uint64_t allocBytes(StringRef comment, uint64_t elem) {
  static const llvm::Regex alloc(
      "^[ \t]*// T\\.alloc \\[([^]]*)\\] shared(\\.dyn)?([ \t]|$)");
  llvm::SmallVector<StringRef, 4> m;
  if (!elem || !alloc.match(comment, &m))
    return 0;
  uint64_t n = elem;
  llvm::SmallVector<StringRef, 4> dims;
  m[1].split(dims, ',');
  for (StringRef d : dims) {
    uint64_t v;
    if (d.trim().getAsInteger(10, v))
      return 0;
    n *= v;
  }
  return n;
}

/// The plan of one kernel's placements, or nothing when no boundary can
/// take a red zone.
std::optional<SharedRedZonePlan>
planKernel(const std::vector<Placement> &placed) {
  std::set<uint32_t> starts;
  for (const Placement &p : placed)
    if (p.offset > 0)
      starts.insert(p.offset);
  SharedRedZonePlan plan;
  uint32_t added = 0;
  for (uint32_t b : starts) {
    // Everything below b must be of known extent (at least one stage of
    // it: the comment's shape) and end at or before b.
    const Placement *below = nullptr;
    bool ok = true;
    for (const Placement &p : placed) {
      if (p.offset >= b)
        continue;
      if (!p.bytes || p.offset + p.bytes > b) {
        ok = false;
        break;
      }
      if (!below || p.offset + p.bytes > below->offset + below->bytes)
        below = &p;
    }
    if (!ok || !below)
      continue;
    // What starts at b: a buffer of known size first, else an area.
    const Placement *above = nullptr;
    for (const Placement &p : placed)
      if (p.offset == b && (!above || (!above->bytes && p.bytes)))
        above = &p;
    // The zone starts at b, not at the end of the buffer below: a
    // T.Pipelined buffer's comment gives one stage, and its other stages
    // (and its padding) lie between that end and b.
    SharedRedZone z;
    z.begin = b + added;
    z.end = z.begin + kRedZoneBytes;
    z.below = below->name;
    z.belowBytes = b - below->offset;
    z.belowOffset = below->offset;
    z.above = above->name;
    z.printedStart = b;
    plan.zones.push_back(std::move(z));
    added += kRedZoneBytes;
  }
  if (plan.zones.empty())
    return std::nullopt;
  plan.extraBytes = added;
  return plan;
}

/// One named buffer whose element indices the moved source checks.
struct IndexedBuffer {
  std::string name;
  uint64_t elemBytes = 0, extent = 0;
  uint32_t offset = 0;
};

/// The buffers of \p placed whose extent is known: from the buffer's offset
/// to the next placement's start (or to the end of \p total shared bytes),
/// so a T.Pipelined buffer's later stages and its padding count as its
/// own. A buffer some other placement starts inside (areas and buffers
/// placed over dead ones) is left out: its extent is not known.
std::map<size_t, IndexedBuffer>
indexedBuffers(const std::vector<Placement> &placed, uint64_t total) {
  std::map<size_t, IndexedBuffer> out;
  for (const Placement &p : placed) {
    if (!p.bytes || p.name.empty() || p.name.front() != '\'')
      continue;
    uint64_t next = total;
    bool inside = false;
    for (const Placement &q : placed) {
      if (q.offset <= p.offset)
        continue;
      inside |= q.offset < p.offset + p.bytes;
      next = std::min<uint64_t>(next, q.offset);
    }
    if (inside || next < p.offset + p.bytes)
      continue;
    IndexedBuffer b;
    b.name = p.name;
    b.elemBytes = p.elemBytes;
    b.extent = next - p.offset;
    b.offset = p.offset;
    out[p.line] = std::move(b);
  }
  return out;
}

bool isIdentChar(char c) { return llvm::isAlnum(c) || c == '_'; }

/// Whether the `&` or `*` ending \p before is unary: nothing or an
/// operator comes before it (`a & s[i]`, `a * (s + k)[i]` are binary).
bool endsWithUnary(StringRef before, char op) {
  if (!before.ends_with(StringRef(&op, 1)) ||
      before.ends_with(std::string(2, op)))
    return false;
  StringRef operand = before.drop_back().rtrim();
  return operand.empty() ||
         StringRef("=(,[{;?:!&|+-*/<>%^").contains(operand.back());
}

/// What an element is for: its address (3, \p address: after a unary `&`),
/// a store (1: \p after, the text after it, starts `= `, `+=` ...) or a
/// load (0).
int accessKind(StringRef after, bool address) {
  if (address)
    return 3;
  if ((after.starts_with("=") && !after.starts_with("==")) ||
      (after.size() > 1 && after[1] == '=' &&
       StringRef("+-*/%&|^").contains(after[0])))
    return 1;
  return 0;
}

/// The end of the addend that starts \p text (`k` of `s + k)`): the
/// position of the `)` or `,` that ends it at depth 0, or npos where it
/// holds anything but names, numbers, `.`, `* / % + -` and bracketed
/// text (a template argument list, a conditional: left unchecked).
size_t addendEnd(StringRef text) {
  int depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '(' || c == '[') {
      ++depth;
    } else if ((c == ')' || c == ']') && depth > 0) {
      --depth;
    } else if (depth == 0) {
      if (c == ')' || c == ',')
        return i == 0 ? StringRef::npos : i;
      if (!isIdentChar(c) && !StringRef(" .*/%+-").contains(c))
        return StringRef::npos;
    }
  }
  return StringRef::npos;
}

/// The position of the `]` that closes a `[` just before \p from in
/// \p text (brackets and parentheses between nest), or text.size().
size_t closingBracket(StringRef text, size_t from) {
  int depth = 0;
  for (size_t i = from; i < text.size(); ++i) {
    char c = text[i];
    if (c == '[' || c == '(')
      ++depth;
    else if ((c == ']' || c == ')') && depth > 0)
      --depth;
    else if (c == ']')
      return i;
  }
  return text.size();
}

/// \p text with every `NAME[INDEX]` of a buffer of \p buffers (by name)
/// as `NAME[::tlc::sim::sharedIndex(INDEX, ...)]`, innermost first. An
/// index whose `]` is not on the line is left as it is, and so is the text
/// of string and character literals (T.print's format names the buffer)
/// and of a trailing `//` comment.
std::string wrapIndices(StringRef text,
                        const std::map<std::string, IndexedBuffer> &buffers) {
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    if (text.substr(i).starts_with("//")) { // a trailing comment ("the tile's")
      out += text.substr(i);
      break;
    }
    if (text[i] == '"' || text[i] == '\'') {
      size_t end = i + 1;
      while (end < text.size() && text[end] != text[i])
        end += text[end] == '\\' ? 2 : 1;
      end = std::min(end + 1, text.size());
      out += text.slice(i, end);
      i = end;
      continue;
    }
    if (!isIdentChar(text[i]) ||
        (i > 0 && (isIdentChar(text[i - 1]) || text[i - 1] == '.' ||
                   text[i - 1] == ':' || text[i - 1] == '>'))) {
      out += text[i++];
      continue;
    }
    size_t end = i;
    while (end < text.size() && isIdentChar(text[end]))
      ++end;
    StringRef name = text.slice(i, end);
    auto it = buffers.find(name.str());
    // Pointer arithmetic on the buffer: `(NAME + K)[I]` is element K + I,
    // `*(NAME + K)` element K, and any other `NAME + K)` / `NAME + K,` (an
    // argument, a stage's start) an address within the buffer.
    if (it != buffers.end() && text.substr(end).starts_with(" + ")) {
      size_t from = end + 3;
      size_t stop = addendEnd(text.substr(from));
      if (stop != StringRef::npos) {
        stop += from;
        const IndexedBuffer &b = it->second;
        auto args = [&](int kind) {
          return ", \"" + b.name + "\", " + std::to_string(b.elemBytes) +
                 "u, " + std::to_string(b.extent) + "u, " +
                 std::to_string(b.offset) + "u, " + std::to_string(kind) + ")";
        };
        std::string addend = wrapIndices(text.slice(from, stop), buffers);
        bool paren = i > 0 && text[i - 1] == '(' && text[stop] == ')';
        StringRef before =
            paren ? StringRef(out).rtrim().drop_back().rtrim() : StringRef();
        bool call = paren && !before.empty() &&
                    (isIdentChar(before.back()) || before.back() == '>' ||
                     before.back() == ']' || before.back() == ')');
        size_t close = stop + 1;
        // `(NAME + K)[I]`: one index, K + I.
        if (paren && !call && close < text.size() && text[close] == '[') {
          size_t last = closingBracket(text, close + 1);
          if (last < text.size()) {
            int kind = accessKind(text.substr(last + 1).ltrim(),
                                  endsWithUnary(before, '&'));
            out.pop_back(); // the `(`
            out += name;
            out += "[::tlc::sim::sharedIndex((" + addend + ") + (" +
                   wrapIndices(text.slice(close + 1, last), buffers) + ")" +
                   args(kind) + "]";
            i = last + 1;
            continue;
          }
        }
        // `*(NAME + K)`: element K; otherwise an address (one past the
        // end allowed).
        int kind = 3;
        if (paren && !call && endsWithUnary(before, '*'))
          kind = accessKind(text.substr(close).ltrim(), false);
        out += name;
        out += " + ::tlc::sim::sharedIndex(" + addend + args(kind);
        i = stop;
        continue;
      }
    }
    if (it == buffers.end() || end >= text.size() || text[end] != '[') {
      out += name;
      i = end;
      continue;
    }
    size_t close = closingBracket(text, end + 1);
    if (close >= text.size()) {
      out += name;
      i = end;
      continue;
    }
    // What the element is for: its address (`&NAME[...]`), a store
    // (`NAME[...] = `, `+=` ...) or a load.
    StringRef before = text.substr(0, i).rtrim();
    StringRef after = text.substr(close + 1).ltrim();
    // A unary `&` (not `a & s[i]`, a bitwise and of the element).
    int kind = accessKind(after, endsWithUnary(before, '&'));
    const IndexedBuffer &b = it->second;
    out += name;
    out += "[::tlc::sim::sharedIndex(";
    out += wrapIndices(text.slice(end + 1, close), buffers);
    out += ", \"" + b.name + "\", " + std::to_string(b.elemBytes) + "u, " +
           std::to_string(b.extent) + "u, " + std::to_string(b.offset) + "u, " +
           std::to_string(kind) + ")]";
    i = close + 1;
  }
  return out;
}

} // namespace

SharedRedZoneSource tlc::runtime::sim::placeSharedRedZones(
    StringRef source, const std::map<std::string, uint64_t> &dynamicShared,
    uint64_t capacity) {
  SharedRedZoneSource out;
  llvm::SmallVector<StringRef, 0> lines;
  source.split(lines, '\n');
  static const llvm::Regex decl(
      "^[ \t]*([A-Za-z_][A-Za-z0-9_:]*) \\*([A-Za-z_][A-Za-z0-9_]*) = "
      "reinterpret_cast<([A-Za-z_][A-Za-z0-9_:]*) \\*>\\(smem \\+ "
      "([0-9]+)\\);[ \t]*$");
  static const llvm::Regex use("(^|[^A-Za-z0-9_])smem([^A-Za-z0-9_]|$)");
  static const llvm::Regex constant("^smem \\+ ([0-9]+)([^A-Za-z0-9_.]|$)");

  // Each kernel: its entry and the lines from its `extern __shared__`.
  struct Kernel {
    std::string entry;
    size_t first = 0, last = 0; // [first, last)
  };
  std::vector<Kernel> kernels;
  std::string entry;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].contains("__global__")) {
      if (!kernels.empty() && kernels.back().last == 0)
        kernels.back().last = i;
      entry = entryName(lines[i]);
    } else if (lines[i].contains("extern __shared__") &&
               lines[i].contains("smem[]")) {
      if (!kernels.empty() && kernels.back().last == 0)
        kernels.back().last = i;
      kernels.push_back({entry, i + 1, 0});
    }
  }
  if (!kernels.empty() && kernels.back().last == 0)
    kernels.back().last = lines.size();

  // The moved offset of each `smem + N` on each line to rewrite.
  std::map<size_t, std::vector<std::pair<uint32_t, uint32_t>>> moves;
  // The buffers (by name) whose indices each line's accesses check.
  std::map<size_t, std::map<std::string, IndexedBuffer>> indexChecks;
  for (const Kernel &k : kernels) {
    auto size = dynamicShared.find(k.entry);
    if (k.entry.empty() || size == dynamicShared.end())
      continue;
    std::vector<Placement> placed;
    bool movable = true;
    for (size_t i = k.first; i < k.last && movable; ++i) {
      StringRef line = lines[i];
      // Every use of `smem` must be `smem + CONSTANT`.
      for (size_t at = 0; movable;) {
        llvm::SmallVector<StringRef, 3> m;
        StringRef rest = line.substr(at);
        if (!use.match(rest, &m))
          break;
        size_t pos = at + rest.find(m[0]) + m[1].size();
        llvm::SmallVector<StringRef, 3> c;
        uint32_t offset;
        if (!constant.match(line.substr(pos), &c) ||
            c[1].getAsInteger(10, offset)) {
          movable = false;
          break;
        }
        placed.push_back({i, offset, 0, 0, "an area at offset " + c[1].str()});
        at = pos + 4;
      }
      llvm::SmallVector<StringRef, 5> d;
      if (!movable || !decl.match(line, &d) || d[1] != d[3])
        continue;
      Placement &p = placed.back();
      p.name = d[2].str();
      size_t prev = i;
      while (prev > k.first && lines[prev - 1].trim().starts_with("#line"))
        --prev;
      p.elemBytes = storageBytes(d[1]);
      if (prev > k.first)
        p.bytes = allocBytes(lines[prev - 1], p.elemBytes);
      p.name = "'" + p.name + "'";
    }
    if (!movable)
      continue;
    // Every named buffer of known extent: its element indices are checked
    // on the kernel's lines after its declaration (areas of unknown extent
    // elsewhere do not matter to them).
    std::map<size_t, IndexedBuffer> indexed =
        indexedBuffers(placed, size->second);
    for (auto &[line, b] : indexed)
      for (size_t i = line + 1; i < k.last; ++i)
        indexChecks[i][b.name.substr(1, b.name.size() - 2)] = b;
    std::optional<SharedRedZonePlan> plan = planKernel(placed);
    if (!plan || size->second + plan->extraBytes > capacity)
      continue;
    for (const Placement &p : placed) {
      uint32_t shift = 0;
      for (const SharedRedZone &z : plan->zones)
        if (z.printedStart <= p.offset)
          shift += kRedZoneBytes;
      moves[p.line].push_back({p.offset, p.offset + shift});
    }
    out.plans[k.entry] = std::move(*plan);
  }

  if (moves.empty() && indexChecks.empty()) {
    out.source = source.str();
    return out;
  }
  for (size_t i = 0; i < lines.size(); ++i) {
    auto it = moves.find(i);
    std::string text;
    if (it == moves.end()) {
      text = lines[i].str();
    } else {
      StringRef line = lines[i];
      size_t n = 0;
      for (auto [from, to] : it->second) {
        std::string pat = "smem + " + std::to_string(from);
        size_t at = line.find(pat, n);
        text += line.substr(n, at - n);
        text += "smem + " + std::to_string(to);
        n = at + pat.size();
      }
      text += line.substr(n);
    }
    auto checks = indexChecks.find(i);
    StringRef trimmed = lines[i].ltrim();
    if (checks != indexChecks.end() && !trimmed.starts_with("//") &&
        !trimmed.starts_with("#"))
      text = wrapIndices(text, checks->second);
    out.source += text;
    if (i + 1 < lines.size())
      out.source += '\n';
  }
  return out;
}
