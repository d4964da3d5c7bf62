//===- Slices.cpp - Independent parts of a file's top level ---------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// For each top-level statement: the module-level names it binds, every name
// it mentions (reads or binds, in any nested scope), a digest of its syntax
// and whether it escapes name-based reasoning. Statements are then merged
// (union-find) over every module-level name: all statements that mention a
// name some statement binds at module level end up in one slice. Imports
// whose names only imports bind are the exception: they are copied into the
// slices that mention them instead of merging those slices (every copy of a
// file's `import tilelang.language as T` binds the same module).
//
// Over-approximation is always safe (fewer, larger slices); the mentions
// therefore include local variables, parameters and attribute-free names of
// every nested scope.
//
//===----------------------------------------------------------------------===//

#include "tlc/Eval/Slices.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>

using namespace tlc;
using namespace tlc::eval;
using syntax::Field;
using syntax::Node;
using syntax::NodeKind;
using syntax::WalkResult;

/// What one top-level statement touches, owning its names (the entries of
/// a StatementCache outlive the trees they were made from).
struct tlc::eval::StatementFacts {
  /// Names it binds in the module scope, in order.
  std::vector<std::string> binds;
  /// Names it mentions anywhere (a superset of `binds`), sorted, unique.
  std::vector<std::string> mentions;
  /// Digest of the syntax tree below it (kinds, relative ranges, contexts).
  uint64_t digest = 0xcbf29ce484222325ull;
  /// An import statement.
  bool isImport = false;
  /// For an import at the top level: each name it binds and what it binds
  /// it to (`a.b` for `import a.b as X`, `a` for `import a.b`, `m:x` for
  /// `from m import x`).
  std::vector<std::pair<std::string, std::string>> imports;
  /// Why it defeats name-based reasoning (empty: it does not).
  std::string escape;
  /// The names it binds in any scope (FileNames::bound), and whether it
  /// star-imports.
  std::vector<std::string> bound;
  bool starImport = false;
};

namespace {

/// What one top-level statement touches, while it is being walked.
struct StmtFacts {
  Node node;
  /// Names it binds in the module scope.
  llvm::SmallVector<llvm::StringRef, 2> binds;
  /// Names it mentions anywhere (a superset of `binds`).
  llvm::DenseSet<llvm::StringRef> mentions;
  /// Digest of the syntax tree below it (kinds, relative ranges, contexts).
  uint64_t digest = 0xcbf29ce484222325ull;
  /// An import statement.
  bool isImport = false;
  /// See StatementFacts::imports.
  llvm::SmallVector<std::pair<llvm::StringRef, std::string>, 2> imports;
  /// Why it defeats name-based reasoning (empty: it does not).
  std::string escape;
};

void mix(uint64_t &h, uint64_t v) {
  for (int i = 0; i < 8; ++i) {
    h ^= (v >> (8 * i)) & 0xff;
    h *= 0x100000001b3ull;
  }
}

/// Names whose use reaches module state other than through names.
bool isReflective(llvm::StringRef name) {
  return llvm::is_contained(
      {"exec", "eval", "globals", "locals", "vars", "dir", "__import__",
       "setattr", "delattr", "importlib", "__builtins__", "builtins"},
      name);
}

/// The name an import alias binds.
llvm::StringRef aliasBinding(Node alias, bool isImportFrom) {
  llvm::StringRef as = alias.identifier(Field::asname);
  if (!as.empty())
    return as;
  llvm::StringRef name = alias.identifier(Field::name);
  return isImportFrom ? name : name.split('.').first;
}

/// Names bound in the module scope by \p n (not in nested functions,
/// lambdas or class bodies, whose names are local; `global` declarations
/// there are collected separately).
void collectModuleBinds(Node n, StmtFacts &f) {
  syntax::walk(n, [&](Node m) {
    switch (m.kind()) {
    case NodeKind::FunctionDef:
    case NodeKind::AsyncFunctionDef:
    case NodeKind::ClassDef:
      f.binds.push_back(m.identifier());
      // Decorators, defaults and bases run in the enclosing scope, but
      // only a walrus could bind there (collected file-wide below).
      return WalkResult::Skip;
    case NodeKind::Lambda:
      return WalkResult::Skip;
    case NodeKind::Name:
      if (m.context() != syntax::ExprContext::Load)
        f.binds.push_back(m.identifier());
      return WalkResult::Advance;
    case NodeKind::ExceptHandler:
    case NodeKind::MatchAs:
    case NodeKind::MatchStar:
      if (!m.identifier().empty())
        f.binds.push_back(m.identifier());
      return WalkResult::Advance;
    case NodeKind::Import:
    case NodeKind::ImportFrom:
      for (Node a : m.children(Field::names))
        f.binds.push_back(
            aliasBinding(a, m.kind() == NodeKind::ImportFrom));
      return WalkResult::Skip;
    default:
      return WalkResult::Advance;
    }
  });
}

StmtFacts analyzeStatement(Node stmt) {
  StmtFacts f;
  f.node = stmt;
  f.isImport =
      stmt.kind() == NodeKind::Import || stmt.kind() == NodeKind::ImportFrom;
  uint32_t base = stmt.range().begin;
  auto relative = [&](uint32_t offset) { return offset - base; };
  collectModuleBinds(stmt, f);
  syntax::walk(stmt, [&](Node m) {
    mix(f.digest, uint64_t(m.kind()));
    mix(f.digest, relative(m.range().begin));
    mix(f.digest, relative(m.range().end));
    switch (m.kind()) {
    case NodeKind::Name: {
      llvm::StringRef id = m.identifier();
      mix(f.digest, uint64_t(m.context()));
      f.mentions.insert(id);
      if (isReflective(id))
        f.escape = ("'" + id + "'").str();
      break;
    }
    case NodeKind::NamedExpr: {
      // `(x := ...)` binds in the enclosing function, or in the module
      // from a comprehension: count it as a module binding wherever it is.
      if (Node t = m.child(Field::target))
        if (t.kind() == NodeKind::Name)
          f.binds.push_back(t.identifier());
      break;
    }
    case NodeKind::FunctionDef:
    case NodeKind::AsyncFunctionDef:
    case NodeKind::ClassDef:
    case NodeKind::arg:
    case NodeKind::ExceptHandler:
    case NodeKind::MatchAs:
    case NodeKind::MatchStar:
    case NodeKind::TypeVar:
    case NodeKind::ParamSpec:
    case NodeKind::TypeVarTuple:
      if (!m.identifier().empty())
        f.mentions.insert(m.identifier());
      break;
    case NodeKind::Global:
    case NodeKind::Nonlocal:
      for (const syntax::Identifier &id : m.identifiers(Field::names)) {
        f.mentions.insert(id.name);
        if (m.kind() == NodeKind::Global)
          f.binds.push_back(id.name);
      }
      break;
    case NodeKind::Import:
    case NodeKind::ImportFrom: {
      bool from = m.kind() == NodeKind::ImportFrom;
      llvm::StringRef module = from ? m.identifier(Field::module) : "";
      for (Node a : m.children(Field::names)) {
        llvm::StringRef name = a.identifier(Field::name);
        if (name == "*")
          f.escape = "a star import";
        if (from && module.ends_with("testing") && name == "main")
          f.escape = "tilelang.testing.main";
        if (!from && (name == "importlib" || name == "builtins"))
          f.escape = ("'import " + name + "'").str();
        llvm::StringRef bound = aliasBinding(a, from);
        f.mentions.insert(bound);
        if (m == stmt) {
          std::string what =
              from ? std::string(m.importLevel(), '.') + module.str() + ":" +
                         name.str()
                   : (a.identifier(Field::asname).empty()
                          ? name.split('.').first.str()
                          : name.str());
          f.imports.push_back({bound, what});
        }
      }
      break;
    }
    case NodeKind::Attribute: {
      llvm::StringRef attr = m.identifier();
      if (attr == "__dict__" || attr == "__globals__" || attr == "f_globals" ||
          attr == "modules")
        f.escape = ("'." + attr + "'").str();
      if (attr == "main")
        if (Node v = m.child(Field::value))
          if ((v.kind() == NodeKind::Attribute ||
               v.kind() == NodeKind::Name) &&
              v.identifier() == "testing")
            f.escape = "tilelang.testing.main";
      break;
    }
    default:
      break;
    }
    return WalkResult::Advance;
  });
  return f;
}

/// The owned facts of \p stmt.
std::shared_ptr<const StatementFacts> ownFacts(Node stmt) {
  StmtFacts f = analyzeStatement(stmt);
  auto out = std::make_shared<StatementFacts>();
  for (llvm::StringRef name : f.binds)
    out->binds.push_back(name.str());
  for (llvm::StringRef name : f.mentions)
    out->mentions.push_back(name.str());
  llvm::sort(out->mentions);
  out->digest = f.digest;
  out->isImport = f.isImport;
  for (auto &[bound, what] : f.imports)
    out->imports.push_back({bound.str(), what});
  out->escape = f.escape;
  FileNames names;
  collectFileNames(stmt, names);
  for (llvm::StringRef name : names.bound)
    out->bound.push_back(name.str());
  out->starImport = names.starImport;
  return out;
}

/// The text the keys of \p stmt hash: a definition's from its first
/// decorator on (the definition's own range starts at `def` / `class`, so
/// an edited `@tilelang.jit(out_idx=...)` would otherwise keep a stale
/// statement's facts and slice).
llvm::StringRef keyText(Node stmt) {
  llvm::StringRef text = stmt.text();
  for (Node dec : stmt.children(Field::decorator_list)) {
    llvm::StringRef first = dec.text();
    if (first.data() < text.data())
      return llvm::StringRef(first.data(),
                             text.data() + text.size() - first.data());
    break;
  }
  return text;
}

/// The cache key of \p stmt: its text's 128-bit hash, length and kind.
std::string statementKey(Node stmt) {
  llvm::StringRef text = keyText(stmt);
  llvm::XXH128_hash_t h = llvm::xxh3_128bits(
      llvm::ArrayRef<uint8_t>(text.bytes_begin(), text.size()));
  return std::to_string(h.high64) + ":" + std::to_string(h.low64) + ":" +
         std::to_string(text.size()) + ":" +
         std::to_string(unsigned(stmt.kind()));
}

/// Union-find over statement indices.
struct Sets {
  std::vector<unsigned> parent;
  explicit Sets(unsigned n) : parent(n) {
    std::iota(parent.begin(), parent.end(), 0u);
  }
  unsigned find(unsigned x) {
    while (parent[x] != x)
      x = parent[x] = parent[parent[x]];
    return x;
  }
  void join(unsigned a, unsigned b) {
    a = find(a);
    b = find(b);
    if (a != b)
      parent[std::max(a, b)] = std::min(a, b);
  }
};

/// The part of a slice key that member statement \p stmt gives.
void appendMemberKey(std::string &key, Node stmt, bool shared,
                     uint64_t digest) {
  llvm::StringRef text = keyText(stmt);
  key += shared ? 'I' : 'S';
  key += std::to_string(llvm::xxh3_64bits(text)) + ":" +
         std::to_string(text.size()) + ":" + std::to_string(digest) + ";";
}

/// True when \p a and \p b give the same slices (all but their digests).
bool sameNames(const StatementFacts &a, const StatementFacts &b) {
  return a.isImport == b.isImport && a.starImport == b.starImport &&
         a.binds == b.binds && a.mentions == b.mentions &&
         a.imports == b.imports && a.escape == b.escape && a.bound == b.bound;
}

} // namespace

struct tlc::eval::SliceMemo::Entry {
  /// The statements' facts then.
  std::vector<std::shared_ptr<const StatementFacts>> stmts;
  /// The result (sliced: no reason).
  FileSlices slices;
  /// The slices holding each statement.
  std::vector<llvm::SmallVector<unsigned, 1>> slicesOf;
};

SliceMemo::SliceMemo(size_t maxFiles) : maxFiles(maxFiles) {}
SliceMemo::~SliceMemo() = default;

void SliceMemo::clear() {
  std::lock_guard<std::mutex> lock(mutex);
  files.clear();
}

std::shared_ptr<const SliceMemo::Entry>
SliceMemo::lookup(const std::string &fileName) {
  std::lock_guard<std::mutex> lock(mutex);
  for (auto &[name, entry] : files)
    if (name == fileName)
      return entry;
  return nullptr;
}

void SliceMemo::record(const std::string &fileName,
                       std::shared_ptr<const Entry> entry) {
  std::lock_guard<std::mutex> lock(mutex);
  llvm::erase_if(files, [&](const auto &f) { return f.first == fileName; });
  if (files.size() >= maxFiles)
    files.erase(files.begin());
  files.emplace_back(fileName, std::move(entry));
}

namespace {

/// The slices of \p memo's file for statements \p stmts (nodes \p nodes)
/// when only digests and texts changed since, or std::nullopt.
std::optional<FileSlices>
reuseSlices(const SliceMemo::Entry &memo,
            llvm::ArrayRef<std::shared_ptr<const StatementFacts>> stmts,
            llvm::ArrayRef<Node> nodes) {
  if (memo.stmts.size() != stmts.size())
    return std::nullopt;
  std::vector<unsigned> changed;
  for (size_t i = 0; i < stmts.size(); ++i) {
    if (memo.stmts[i] == stmts[i])
      continue;
    if (!sameNames(*memo.stmts[i], *stmts[i]))
      return std::nullopt;
    changed.push_back(i);
  }
  FileSlices out = memo.slices;
  llvm::SmallVector<unsigned, 4> rekey;
  for (unsigned i : changed)
    for (unsigned k : memo.slicesOf[i])
      if (!llvm::is_contained(rekey, k))
        rekey.push_back(k);
  for (unsigned k : rekey) {
    Slice &slice = out.slices[k];
    size_t bound = slice.key.rfind("bound:");
    size_t head = slice.key.find('\0');
    if (bound == std::string::npos || head == std::string::npos)
      return std::nullopt;
    std::string key = slice.key.substr(0, head + 1);
    for (auto [m, i] : llvm::enumerate(slice.statements))
      appendMemberKey(key, nodes[i], slice.shared[m], stmts[i]->digest);
    key += llvm::StringRef(slice.key).substr(bound);
    slice.key = std::move(key);
  }
  return out;
}

} // namespace

FileSlices tlc::eval::sliceTopLevel(const syntax::SyntaxTree &tree,
                                    StatementCache *cache, SliceMemo *memo) {
  FileSlices out;
  llvm::StringRef base = llvm::sys::path::filename(tree.fileName());
  if (base.starts_with("test_") || base.ends_with("_test.py")) {
    out.reason = "a test file (its test functions run by name)";
    return out;
  }
  llvm::SmallVector<Node, 0> nodes =
      tree.root().children(Field::body).toVector();
  auto storage =
      std::make_shared<std::vector<std::shared_ptr<const StatementFacts>>>();
  std::vector<std::shared_ptr<const StatementFacts>> &stmts = *storage;
  for (Node stmt : nodes) {
    std::shared_ptr<const StatementFacts> facts;
    std::string key;
    if (cache) {
      key = statementKey(stmt);
      facts = cache->lookup(key);
    }
    if (!facts) {
      facts = ownFacts(stmt);
      if (cache)
        cache->record(key, facts);
    }
    stmts.push_back(std::move(facts));
    if (!stmts.back()->escape.empty()) {
      out.reason = "the file uses " + stmts.back()->escape;
      return out;
    }
  }
  std::string fileKey = tree.fileName().str();
  if (memo)
    if (std::shared_ptr<const SliceMemo::Entry> last = memo->lookup(fileKey))
      if (std::optional<FileSlices> reused = reuseSlices(*last, stmts, nodes)) {
        auto entry = std::make_shared<SliceMemo::Entry>(*last);
        entry->stmts = stmts;
        entry->slices = *reused;
        memo->record(fileKey, std::move(entry));
        return std::move(*reused);
      }
  unsigned n = stmts.size();
  // Which statements bind each module-level name.
  llvm::DenseMap<llvm::StringRef, llvm::SmallVector<unsigned, 2>> binders;
  for (unsigned i = 0; i < n; ++i)
    for (llvm::StringRef name : stmts[i]->binds) {
      auto &list = binders[name];
      if (list.empty() || list.back() != i)
        list.push_back(i);
    }
  // Names only imports bind, and the imports binding only such names.
  llvm::DenseSet<llvm::StringRef> importOnly;
  for (auto &[name, list] : binders)
    if (llvm::all_of(list, [&](unsigned i) { return stmts[i]->isImport; }))
      importOnly.insert(name);
  std::vector<bool> shared(n, false);
  for (unsigned i = 0; i < n; ++i)
    shared[i] = stmts[i]->isImport &&
                llvm::all_of(stmts[i]->binds, [&](llvm::StringRef name) {
                  return importOnly.contains(name);
                });
  // Merge every statement mentioning a module-level name with its binders.
  Sets sets(n);
  for (unsigned i = 0; i < n; ++i) {
    if (shared[i])
      continue;
    for (llvm::StringRef name : stmts[i]->mentions) {
      auto it = binders.find(name);
      if (it == binders.end() || importOnly.contains(name))
        continue;
      for (unsigned j : it->second)
        sets.join(i, j);
    }
  }
  // The file-wide facts a slice's evaluation reads: names bound anywhere
  // (the evaluator treats an unresolved such name as unknown, others as
  // undefined), what collectFileNames(tree) gives.
  auto names = std::make_shared<FileNames>();
  for (const auto &stmt : stmts) {
    for (const std::string &name : stmt->bound)
      names->bound.insert(name);
    names->starImport |= stmt->starImport;
  }
  names->storage = storage;
  if (names->starImport) {
    out.reason = "the file uses a star import";
    return out;
  }
  out.names = names;

  // An import-only name that every import binds to the same module needs
  // one of them in a slice (the first: what any other would bind is the
  // same); otherwise the slice gets every import of it, in order.
  llvm::DenseMap<llvm::StringRef, bool> uniform;
  for (llvm::StringRef name : importOnly) {
    const std::string *first = nullptr;
    bool same = true;
    for (unsigned i : binders.find(name)->second)
      for (const auto &[bound, what] : stmts[i]->imports)
        if (bound == name) {
          if (!first)
            first = &what;
          same &= what == *first;
        }
    uniform[name] = same;
  }

  std::map<unsigned, std::vector<unsigned>> groups;
  std::vector<unsigned> imports;
  for (unsigned i = 0; i < n; ++i)
    (shared[i] ? imports : groups[sets.find(i)]).push_back(i);
  std::vector<bool> inSlice(n, false);
  auto addSlice = [&](std::vector<unsigned> members) {
    Slice slice;
    for (unsigned i : members)
      inSlice[i] = true;
    std::vector<llvm::StringRef> mentioned;
    for (unsigned i : members)
      for (llvm::StringRef name : stmts[i]->mentions)
        mentioned.push_back(name);
    llvm::sort(mentioned);
    mentioned.erase(std::unique(mentioned.begin(), mentioned.end()),
                    mentioned.end());
    // The shared imports of the names the members mention.
    for (llvm::StringRef name : mentioned) {
      if (!importOnly.contains(name))
        continue;
      for (unsigned j : binders.find(name)->second) {
        if (!inSlice[j]) {
          inSlice[j] = true;
          members.push_back(j);
        }
        if (uniform[name])
          break;
      }
    }
    llvm::sort(members);
    slice.statements = members;
    // The key: each statement's text (as a hash and a length) and syntax
    // digest, then the mentioned names bound anywhere in the file.
    slice.key = tree.fileName().str();
    slice.key += '\0';
    for (unsigned i : members) {
      inSlice[i] = false;
      slice.shared.push_back(shared[i]);
      appendMemberKey(slice.key, nodes[i], shared[i], stmts[i]->digest);
    }
    slice.key += "bound:";
    for (llvm::StringRef name : mentioned)
      if (names->bound.contains(name)) {
        slice.key += name;
        slice.key += ',';
      }
    out.slices.push_back(std::move(slice));
  };
  // Slices are evaluated one by one: a file of very many small ones
  // (100,000 functions) merges neighbours, up to kMaxSlices (evaluating a
  // union of slices together is what evaluating the whole file does).
  constexpr size_t kMaxSlices = 256;
  size_t perSlice = (groups.size() + kMaxSlices - 1) / kMaxSlices;
  std::vector<unsigned> merged;
  size_t taken = 0;
  for (auto &[root, members] : groups) {
    merged.insert(merged.end(), members.begin(), members.end());
    if (++taken % perSlice == 0) {
      addSlice(std::move(merged));
      merged.clear();
    }
  }
  if (!merged.empty())
    addSlice(std::move(merged));
  // Every shared import once more, together: what they report.
  if (!imports.empty())
    addSlice(imports);
  llvm::sort(out.slices, [](const Slice &a, const Slice &b) {
    return a.statements.front() < b.statements.front();
  });
  if (memo) {
    auto entry = std::make_shared<SliceMemo::Entry>();
    entry->stmts = stmts;
    entry->slices = out;
    entry->slicesOf.resize(n);
    for (auto [k, slice] : llvm::enumerate(out.slices))
      for (unsigned i : slice.statements)
        entry->slicesOf[i].push_back(k);
    memo->record(fileKey, std::move(entry));
  }
  return out;
}
