//===- TestUtil.h - Helpers for the Syntax unit tests -----------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef TLC_TESTS_UNIT_SYNTAX_TESTUTIL_H
#define TLC_TESTS_UNIT_SYNTAX_TESTUTIL_H

#include "tlc/Syntax/SyntaxTree.h"

#include <string>
#include <vector>

namespace tlc {
namespace syntax {
namespace test {

/// Reads a whole file ("" when unreadable).
std::string readFile(const std::string &path);
/// The .py files under `dir` (recursive), sorted.
std::vector<std::string> listPythonFiles(const std::string &dir);
/// A compact S-expression of a node: `Kind:ident(field=child, ...)`.
std::string sexpr(Node node);
/// All diagnostic messages joined with "; ".
std::string messages(const SyntaxTree &tree);

} // namespace test
} // namespace syntax
} // namespace tlc

#endif // TLC_TESTS_UNIT_SYNTAX_TESTUTIL_H
