//===- ReparseTest.cpp - Incremental vs full parse ------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Thousands of random edits over real files; after each, reparse() must give
// exactly what parse() gives for the edited text (full token/node dump,
// diagnostics, printed text). Edits insert and delete characters and lines,
// including edits that break the syntax and their inverses that fix it.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "tlc/Syntax/Parser.h"
#include "tlc/Syntax/Reparse.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <random>

using namespace tlc;
using namespace tlc::syntax;

namespace {

const char *const snippets[] = {
    "(",     ")",     "[",        "]",      "{",      "}",        "\"\"\"",
    "'",     "\"",    "\n",       "    ",   "\t",     "x",        "def ",
    ":",     "\\\n",  "#",        "else:\n", "f'{",   "}'",       "elif ",
    " if ",  "case ", "match x:\n", "\n    ", "'''",  "lambda ",  ",",
    "=",     ": int", "return\n", "@d\n",   "\r\n",   "class C:\n", "\xff",
};

/// Applies `edit` with reparse() and checks it against parse().
std::shared_ptr<const SyntaxTree>
checkEdit(const std::shared_ptr<const SyntaxTree> &tree, const TextEdit &edit,
          unsigned &failures) {
  auto incremental = reparse(tree, edit);
  auto full = parse(applyEdit(tree->source(), edit), tree->fileName());
  bool same = incremental->source() == full->source() &&
              incremental->print() == full->source() &&
              incremental->dump() == full->dump();
  if (!same && failures == 0 && getenv("TLC_REPARSE_DUMP")) {
    FILE *f = fopen(getenv("TLC_REPARSE_DUMP"), "wb");
    fwrite(tree->source().data(), 1, tree->source().size(), f);
    fclose(f);
    fprintf(stderr, "edit %u %u '%s'\n", edit.range.begin, edit.range.end,
            edit.newText.c_str());
  }
  if (!same && ++failures <= 3) {
    MESSAGE("reparse mismatch in " << tree->fileName().str() << " at "
                                   << edit.range.begin << "-"
                                   << edit.range.end << " inserting '"
                                   << edit.newText << "'");
  }
  return incremental;
}

/// Runs `count` random edits over `text`.
void fuzz(const std::string &name, const std::string &text, unsigned count,
          unsigned seed) {
  std::mt19937 rng(seed);
  auto original = parse(text, name);
  auto tree = original;
  unsigned failures = 0;
  for (unsigned i = 0; i < count; ++i) {
    if (i % 50 == 0)
      tree = original; // keep the document realistic
    uint32_t size = static_cast<uint32_t>(tree->source().size());
    uint32_t at = size ? rng() % (size + 1) : 0;
    TextEdit edit;
    switch (rng() % 5) {
    case 0: // insert a snippet
    case 1:
      edit.range = {at, at};
      edit.newText = snippets[rng() % (sizeof(snippets) / sizeof(*snippets))];
      break;
    case 2: { // delete a few characters
      uint32_t len = 1 + rng() % 8;
      edit.range = {at, std::min(size, at + len)};
      break;
    }
    case 3: { // delete a whole line
      const LineIndex &lines = tree->lines();
      uint32_t line = lines.getLine(at);
      edit.range = {lines.getLineStart(line), lines.getLineStart(line + 1)};
      break;
    }
    default: { // duplicate a line elsewhere
      const LineIndex &lines = tree->lines();
      uint32_t line = lines.getLine(rng() % (size + 1));
      edit.newText = tree->source()
                         .slice(lines.getLineStart(line),
                                lines.getLineStart(line + 1))
                         .str();
      uint32_t dest = lines.getLineStart(lines.getLine(at));
      edit.range = {dest, dest};
      break;
    }
    }
    std::string removed =
        tree->source().slice(edit.range.begin, edit.range.end).str();
    auto edited = checkEdit(tree, edit, failures);
    if (rng() % 2) {
      // Undo: fixes whatever the edit broke.
      TextEdit undo{{edit.range.begin,
                     edit.range.begin +
                         static_cast<uint32_t>(edit.newText.size())},
                    removed};
      edited = checkEdit(edited, undo, failures);
      CHECK(edited->source() == tree->source());
    }
    tree = edited;
  }
  CAPTURE(name);
  CHECK(failures == 0u);
}

} // namespace

TEST_CASE("Reparse: equals a full parse after random edits") {
  std::vector<std::string> files = {
      std::string(TLC_PYTHON_STDLIB) + "/textwrap.py",
      std::string(TLC_PYTHON_STDLIB) + "/bisect.py",
      std::string(TLC_PYTHON_STDLIB) + "/shlex.py",
  };
  for (const std::string &path : test::listPythonFiles(TLC_EXAMPLES_DIR))
    if (files.size() < 6)
      files.push_back(path);
  unsigned seed = 1;
  for (const std::string &path : files) {
    std::string text = test::readFile(path);
    if (text.empty())
      continue;
    fuzz(path, text, 800, seed++);
  }
  // Hand-written small documents that stress lexer resynchronisation.
  fuzz("small.py",
       "x = 1\n\ndef f():\n    s = '''\n    doc\n    '''\n    return s\n"
       "if a:\n    pass\nelse:\n    pass\ny = (1,\n     2)\nclass C:\n"
       "    z = f'{x}'\n",
       2000, 99);
}

TEST_CASE("Reparse: shares unchanged top-level statements") {
  std::string text;
  for (int i = 0; i < 100; ++i)
    text += "def f" + std::to_string(i) + "(x):\n    return x + " +
            std::to_string(i) + "\n\n";
  auto tree = parse(text, "gen.py");
  size_t at = text.find("return x + 50");
  auto edited = reparse(tree, TextEdit{{static_cast<uint32_t>(at + 7),
                                        static_cast<uint32_t>(at + 8)},
                                       "y"});
  CHECK(edited->dump() == parse(edited->source())->dump());
  CHECK(edited->getNumChunks() == tree->getNumChunks());
  // Only the edited function and the one before it are reparsed.
  CHECK(edited->countSharedChunks(*tree) == tree->getNumChunks() - 2);

  // Opening a triple-quoted string swallows the rest: nothing after is
  // shared, and closing it again restores sharing of the tail.
  auto open = reparse(tree, TextEdit{{0, 0}, "'''"});
  CHECK(open->dump() == parse(open->source())->dump());
  CHECK(open->countSharedChunks(*tree) == 0u);
  auto closed = reparse(open, TextEdit{{0, 3}, ""});
  CHECK(closed->dump() == tree->dump());
}
