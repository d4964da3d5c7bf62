//===- Memo.cpp - Memoized enumeration facts of layouts -------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Memo.h"
#include "IndexNode.h"

#include "llvm/ADT/StringMap.h"

#include <mutex>

using namespace tlc::layout;

void tlc::layout::appendMemoKey(std::string &out, const IndexExpr &expr) {
  if (!expr) {
    out += '_';
    return;
  }
  const IndexNode *n = expr.get();
  switch (n->kind) {
  case IndexKind::Const:
    out += 'c';
    out += std::to_string(n->value);
    return;
  case IndexKind::Var:
    // The name is part of the key: error messages print it.
    out += 'v';
    out += std::to_string(n->value);
    out += ':';
    out += n->name;
    out += ';';
    return;
  default:
    out += '(';
    out += char('A' + static_cast<int>(n->kind));
    appendMemoKey(out, n->lhs);
    out += ',';
    appendMemoKey(out, n->rhs);
    out += ')';
    return;
  }
}

void tlc::layout::appendMemoKey(std::string &out,
                                llvm::ArrayRef<int64_t> shape) {
  out += '[';
  for (int64_t e : shape) {
    out += std::to_string(e);
    out += ',';
  }
  out += ']';
}

namespace {
/// A bounded, thread-safe map from keys to shared facts. When it is full it
/// is emptied: the working set of one file is far below the bound, so this
/// only trims what old edits left behind.
template <typename T> class MemoTable {
public:
  std::shared_ptr<const T> lookup(const std::string &key) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = map.find(key);
    return it == map.end() ? nullptr : it->second;
  }
  std::shared_ptr<const T> record(std::string key,
                                  std::shared_ptr<const T> value) {
    std::lock_guard<std::mutex> lock(mutex);
    if (map.size() >= kMaxEntries)
      map.clear();
    auto [it, inserted] = map.try_emplace(key, std::move(value));
    return it->second;
  }

private:
  static constexpr size_t kMaxEntries = 4096;
  std::mutex mutex;
  llvm::StringMap<std::shared_ptr<const T>> map;
};

MemoTable<LayoutMemo> &layoutTable() {
  static MemoTable<LayoutMemo> table;
  return table;
}

MemoTable<FragmentMemo> &fragmentTable() {
  static MemoTable<FragmentMemo> table;
  return table;
}

MemoTable<std::string> &verifyTable() {
  static MemoTable<std::string> table;
  return table;
}

MemoTable<bool> &equivalenceTable() {
  static MemoTable<bool> table;
  return table;
}
} // namespace

std::shared_ptr<const LayoutMemo>
tlc::layout::lookupLayoutMemo(const std::string &key) {
  return layoutTable().lookup(key);
}

std::shared_ptr<const LayoutMemo>
tlc::layout::recordLayoutMemo(std::string key,
                              std::shared_ptr<const LayoutMemo> memo) {
  return layoutTable().record(std::move(key), std::move(memo));
}

std::shared_ptr<const FragmentMemo>
tlc::layout::lookupFragmentMemo(const std::string &key) {
  return fragmentTable().lookup(key);
}

void tlc::layout::recordFragmentMemo(std::string key,
                                     std::shared_ptr<const FragmentMemo> memo) {
  fragmentTable().record(std::move(key), std::move(memo));
}

std::optional<std::string>
tlc::layout::lookupVerifyMemo(const std::string &key) {
  if (std::shared_ptr<const std::string> problem = verifyTable().lookup(key))
    return *problem;
  return std::nullopt;
}

void tlc::layout::recordVerifyMemo(std::string key, std::string problem) {
  verifyTable().record(std::move(key),
                       std::make_shared<const std::string>(std::move(problem)));
}

std::optional<bool> tlc::layout::lookupEquivalenceMemo(const std::string &key) {
  if (std::shared_ptr<const bool> same = equivalenceTable().lookup(key))
    return *same;
  return std::nullopt;
}

void tlc::layout::recordEquivalenceMemo(std::string key, bool same) {
  equivalenceTable().record(std::move(key), std::make_shared<const bool>(same));
}
