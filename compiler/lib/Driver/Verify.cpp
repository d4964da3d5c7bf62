//===- Verify.cpp - Checking `# expected-error` annotations ---------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `# expected-error@+1 {{message}}` in a source file states that a
// diagnostic of that severity, whose message contains `message`, is
// reported on the annotated line (`@+N`/`@-N` relative, `@N` absolute,
// none: the same line). Every expected diagnostic must be produced and
// every error/warning must be expected. Notes are only checked in files
// that contain an `expected-note`.
//
//===----------------------------------------------------------------------===//

#include "tlc/Driver/Driver.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace tlc;
using namespace tlc::driver;

namespace {
struct Expectation {
  Severity severity;
  unsigned line; // 1-based
  unsigned annotationLine;
  std::string text;
  bool matched = false;
};

struct Actual {
  Severity severity;
  unsigned line, col;
  std::string message;
  bool matched = false;
};
} // namespace

static std::optional<Severity> parseSeverity(llvm::StringRef s) {
  if (s == "error")
    return Severity::Error;
  if (s == "warning")
    return Severity::Warning;
  if (s == "note")
    return Severity::Note;
  if (s == "remark")
    return Severity::Remark;
  return std::nullopt;
}

/// Parses the annotations of one line; false on a malformed annotation.
static bool parseLine(llvm::StringRef text, unsigned lineNo,
                      std::vector<Expectation> &out, std::string &problem) {
  size_t hash = text.find('#');
  if (hash == llvm::StringRef::npos)
    return true;
  llvm::StringRef rest = text.drop_front(hash);
  while (true) {
    size_t pos = rest.find("expected-");
    if (pos == llvm::StringRef::npos)
      return true;
    rest = rest.drop_front(pos + strlen("expected-"));
    size_t end = rest.find_first_of(" @{");
    std::optional<Severity> sev = parseSeverity(rest.take_front(end));
    if (!sev)
      continue;
    rest = rest.drop_front(end).ltrim();
    unsigned line = lineNo;
    if (rest.consume_front("@")) {
      bool rel = rest.starts_with("+") || rest.starts_with("-");
      bool neg = rest.starts_with("-");
      if (rel)
        rest = rest.drop_front();
      size_t digits = rest.find_first_not_of("0123456789");
      unsigned n = 0;
      if (rest.take_front(digits).getAsInteger(10, n)) {
        problem = "malformed line offset in expected-* annotation";
        return false;
      }
      rest = rest.drop_front(digits).ltrim();
      line = rel ? (neg ? lineNo - n : lineNo + n) : n;
    }
    if (!rest.consume_front("{{")) {
      problem = "expected '{{' in expected-* annotation";
      return false;
    }
    size_t close = rest.find("}}");
    if (close == llvm::StringRef::npos) {
      problem = "missing '}}' in expected-* annotation";
      return false;
    }
    out.push_back({*sev, line, lineNo, rest.take_front(close).str()});
    rest = rest.drop_front(close + 2);
  }
}

bool tlc::driver::verifyDiagnostics(const FileResult &result,
                                    llvm::raw_ostream &err) {
  const syntax::SyntaxTree &tree = *result.tree;
  const LineIndex &lines = tree.lines();
  std::vector<Expectation> expected;
  bool ok = true;
  for (uint32_t l = 0; l < lines.getNumLines(); ++l) {
    std::string problem;
    if (!parseLine(lines.getLineText(l), l + 1, expected, problem)) {
      err << result.path << ':' << l + 1 << ":1: error: " << problem << '\n';
      ok = false;
    }
  }
  bool checkNotes = llvm::any_of(
      expected, [](const Expectation &e) { return e.severity == Severity::Note; });
  std::vector<Actual> actual;
  auto add = [&](Severity sev, TextRange range, const std::string &msg) {
    LinePosition p = lines.toUtf8(range.begin);
    actual.push_back({sev, p.line + 1, p.column + 1, msg});
  };
  for (const Diagnostic &d : result.diagnostics) {
    add(d.severity, d.range, d.message);
    if (checkNotes)
      for (const RelatedInfo &n : d.notes)
        add(Severity::Note, n.range, n.message);
  }
  for (Expectation &e : expected)
    for (Actual &a : actual)
      if (!a.matched && a.severity == e.severity && a.line == e.line &&
          llvm::StringRef(a.message).contains(e.text)) {
        a.matched = e.matched = true;
        break;
      }
  for (const Expectation &e : expected)
    if (!e.matched) {
      err << result.path << ':' << e.annotationLine << ":1: error: expected "
          << getSeverityName(e.severity) << " \"" << e.text
          << "\" was not produced on line " << e.line << '\n';
      ok = false;
    }
  for (const Actual &a : actual)
    if (!a.matched && (a.severity == Severity::Error ||
                       a.severity == Severity::Warning || checkNotes)) {
      err << result.path << ':' << a.line << ':' << a.col << ": error: unexpected "
          << getSeverityName(a.severity) << ": " << a.message << '\n';
      ok = false;
    }
  return ok;
}
