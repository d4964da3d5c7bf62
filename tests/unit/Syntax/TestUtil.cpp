//===- TestUtil.cpp - Helpers for the Syntax unit tests -------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>

using namespace tlc;
using namespace tlc::syntax;

std::string test::readFile(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return "";
  return (*buffer)->getBuffer().str();
}

std::vector<std::string> test::listPythonFiles(const std::string &dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (llvm::sys::fs::recursive_directory_iterator it(dir, ec), end;
       it != end && !ec; it.increment(ec)) {
    llvm::StringRef path = it->path();
    if (path.ends_with(".py") && !path.contains("site-packages"))
      files.push_back(path.str());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string test::sexpr(Node node) {
  if (!node)
    return "None";
  std::string out = getNodeKindName(node.kind()).str();
  llvm::StringRef id = node.identifier();
  NodeKind kind = node.kind();
  if (!id.empty())
    out += ":" + id.str();
  if (kind == NodeKind::BinOp || kind == NodeKind::AugAssign)
    out += ":" + getOpName(node.op()).str();
  if (kind == NodeKind::UnaryOp)
    out += ":" + getOpName(node.unaryOp()).str();
  if (kind == NodeKind::BoolOp)
    out += ":" + getOpName(node.boolOp()).str();
  if (kind == NodeKind::Compare)
    for (CmpOp op : node.compareOps())
      out += ":" + getOpName(op).str();
  if (kind == NodeKind::Constant) {
    LiteralValue v = node.literal();
    switch (v.kind) {
    case LiteralValue::Kind::Int:
      out += "=" + (v.overflow ? v.text : std::to_string(v.intValue));
      break;
    case LiteralValue::Kind::Str:
      out += "='" + v.text + "'";
      break;
    case LiteralValue::Kind::Bytes:
      out += "=b'" + v.text + "'";
      break;
    case LiteralValue::Kind::Float:
    case LiteralValue::Kind::Complex: {
      char buf[64];
      snprintf(buf, sizeof(buf), "%g%s", v.floatValue,
               v.kind == LiteralValue::Kind::Complex ? "j" : "");
      out += std::string("=") + buf;
      break;
    }
    case LiteralValue::Kind::None:
      out += "=None";
      break;
    case LiteralValue::Kind::True:
      out += "=True";
      break;
    case LiteralValue::Kind::False:
      out += "=False";
      break;
    case LiteralValue::Kind::Ellipsis:
      out += "=...";
      break;
    case LiteralValue::Kind::Invalid:
      break;
    }
  }
  if (node.context() == ExprContext::Store)
    out += "!";
  if (node.context() == ExprContext::Del)
    out += "~";
  if (char c = node.conversion())
    out += std::string("!") + c;
  // Children grouped by field, in source order; a field is printed once with
  // its children as a list when it has more than one.
  std::vector<std::pair<Field, std::vector<Node>>> groups;
  for (Node child : node.children()) {
    (void)child;
  }
  for (int f = 1; f <= static_cast<int>(Field::arg); ++f) {
    std::vector<Node> kids;
    for (Node child : node.children(static_cast<Field>(f)))
      kids.push_back(child);
    if (!kids.empty())
      groups.push_back({static_cast<Field>(f), kids});
  }
  // Order groups by first child position so the output reads like source.
  std::stable_sort(groups.begin(), groups.end(), [](auto &a, auto &b) {
    auto pos = [](const std::vector<Node> &v) {
      for (const Node &n : v)
        if (n)
          return n.range().begin;
      return ~0u;
    };
    return pos(a.second) < pos(b.second);
  });
  if (groups.empty())
    return out;
  out += "(";
  bool firstGroup = true;
  for (auto &group : groups) {
    if (!firstGroup)
      out += ", ";
    firstGroup = false;
    out += getFieldName(group.first).str() + "=";
    if (group.second.size() > 1)
      out += "[";
    for (size_t i = 0; i < group.second.size(); ++i) {
      if (i)
        out += ", ";
      out += sexpr(group.second[i]);
    }
    if (group.second.size() > 1)
      out += "]";
  }
  out += ")";
  return out;
}

std::string test::messages(const SyntaxTree &tree) {
  std::string out;
  for (const Diagnostic &d : tree.diagnostics()) {
    if (!out.empty())
      out += "; ";
    out += d.message;
  }
  return out;
}
