//===- Driver.cpp - Analysis driver ---------------------------------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "tlc/Driver/Driver.h"
#include "tlc/Driver/LayoutViews.h"

#include "tlc/Syntax/Parser.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"
#include "tlc/Dialect/Tile/Transforms/Passes.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <tuple>

using namespace tlc;
using namespace tlc::driver;

std::optional<DiagFormat> tlc::driver::parseDiagFormat(llvm::StringRef name) {
  if (name == "text")
    return DiagFormat::Text;
  if (name == "json")
    return DiagFormat::Json;
  if (name == "sarif")
    return DiagFormat::Sarif;
  return std::nullopt;
}

Driver::Driver(DriverOptions options)
    : options(std::move(options)),
      context(std::make_unique<mlir::MLIRContext>(
          mlir::MLIRContext::Threading::DISABLED)) {
  eval::loadEvalDialects(*context);
  // Diagnostics are shown at the source line; the op's IR is no help there.
  context->printOpOnDiagnostic(false);
}

Driver::~Driver() = default;

void Driver::inferLayouts(FileResult &r) {
  driver::inferLayouts(r.analysis, *r.tree, options.eval.target.name,
                       /*cache=*/nullptr, /*cancelled=*/{},
                       /*bankConflicts=*/true);
}

FileResult Driver::analyze(llvm::StringRef path, llvm::StringRef text) {
  return analyze(path, syntax::parseFile(text, path));
}

FileResult Driver::analyze(llvm::StringRef path,
                           std::shared_ptr<const syntax::SyntaxTree> tree) {
  FileResult r;
  r.path = path.str();
  r.tree = std::move(tree);
  r.analysis = eval::analyzeFile(*r.tree, *context, options.eval);
  inferLayouts(r);
  r.diagnostics.assign(r.tree->diagnostics().begin(),
                       r.tree->diagnostics().end());
  r.diagnostics.insert(r.diagnostics.end(), r.analysis.diagnostics.begin(),
                       r.analysis.diagnostics.end());
  std::stable_sort(r.diagnostics.begin(), r.diagnostics.end(),
                   [](const Diagnostic &a, const Diagnostic &b) {
                     return a.range.begin < b.range.begin;
                   });
  return r;
}

int Driver::run(llvm::ArrayRef<std::string> paths, llvm::raw_ostream &out,
                llvm::raw_ostream &err) {
  std::vector<FileResult> results;
  bool unreadable = false;
  for (const std::string &path : paths) {
    auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(
        path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
    if (!buffer) {
      err << path << ": error: cannot read file: "
          << buffer.getError().message() << '\n';
      unreadable = true;
      continue;
    }
    results.push_back(analyze(path, (*buffer)->getBuffer()));
  }
  bool anyError = false;
  for (const FileResult &r : results)
    anyError |= hasErrors(r.diagnostics);

  switch (options.action) {
  case Action::VerifyDiagnostics: {
    bool ok = true;
    for (const FileResult &r : results)
      ok &= verifyDiagnostics(r, err);
    return unreadable ? 2 : ok ? 0 : 1;
  }
  case Action::EmitTile:
    for (FileResult &r : results) {
      if (results.size() > 1)
        out << "==> " << r.path << " <==\n";
      if (r.analysis.module) {
        mlir::OpPrintingFlags flags;
        flags.assumeVerified();
        if (options.printLocations)
          flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
        r.analysis.module->print(out, flags);
      }
      out << '\n';
    }
    break;
  case Action::EmitHints:
    printHintsJson(results, out);
    break;
  case Action::Check:
    break;
  }
  // Machine-readable diagnostics go to stdout for --check; when stdout
  // already carries the emitted IR or hints they go to stderr, so that stdout
  // stays one well-formed document.
  bool diagsOnStdout = options.format != DiagFormat::Text &&
                       (options.action == Action::Check ||
                        options.action == Action::VerifyDiagnostics);
  bool anyDiagnostic = llvm::any_of(
      results, [](const FileResult &r) { return !r.diagnostics.empty(); });
  // Beside emitted output, an empty JSON array on stderr would only be noise.
  if (diagsOnStdout || anyDiagnostic || options.format == DiagFormat::Text)
    printDiagnostics(results, options.format, options.showSourceLines,
                     diagsOnStdout ? out : err);
  if (unreadable)
    return 2;
  return anyError ? 1 : 0;
}

//===----------------------------------------------------------------------===//
// Diagnostics output
//===----------------------------------------------------------------------===//

namespace {
/// 1-based line/column of a byte offset.
struct Pos {
  unsigned line, col;
};
} // namespace

static Pos position(const syntax::SyntaxTree &tree, uint32_t offset) {
  LinePosition p = tree.lines().toUtf8(offset);
  return {p.line + 1, p.column + 1};
}

static llvm::json::Object jsonLocation(const FileResult &r, TextRange range) {
  Pos b = position(*r.tree, range.begin), e = position(*r.tree, range.end);
  return llvm::json::Object{{"file", r.path},
                            {"line", b.line},
                            {"col", b.col},
                            {"endLine", e.line},
                            {"endCol", e.col}};
}

static const char *sarifLevel(Severity s) {
  switch (s) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  default:
    return "note";
  }
}

void tlc::driver::printDiagnostics(llvm::ArrayRef<FileResult> results,
                                   DiagFormat format, bool showSourceLines,
                                   llvm::raw_ostream &os) {
  if (format == DiagFormat::Text) {
    DiagnosticPrintOptions opts;
    opts.showSourceLine = showSourceLines;
    for (const FileResult &r : results)
      tlc::printDiagnostics(os, r.diagnostics, r.path, r.tree->lines(), opts);
    return;
  }
  if (format == DiagFormat::Json) {
    llvm::json::Array arr;
    for (const FileResult &r : results)
      for (const Diagnostic &d : r.diagnostics) {
        llvm::json::Object o = jsonLocation(r, d.range);
        o["severity"] = getSeverityName(d.severity).str();
        o["message"] = d.message;
        if (const eval::ErrorCategory *c = r.analysis.categoryOf(d)) {
          o["category"] = c->category;
          o["raisedAt"] = c->atCompile ? "compile" : "definition";
        }
        llvm::json::Array notes;
        for (const RelatedInfo &n : d.notes) {
          llvm::json::Object no = jsonLocation(r, n.range);
          no["message"] = n.message;
          notes.push_back(std::move(no));
        }
        o["notes"] = std::move(notes);
        arr.push_back(std::move(o));
      }
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(arr))) << '\n';
    return;
  }
  // SARIF 2.1.0.
  llvm::json::Array sarifResults;
  for (const FileResult &r : results)
    for (const Diagnostic &d : r.diagnostics) {
      auto region = [&](TextRange range) {
        Pos b = position(*r.tree, range.begin),
            e = position(*r.tree, range.end);
        return llvm::json::Object{
            {"physicalLocation",
             llvm::json::Object{
                 {"artifactLocation", llvm::json::Object{{"uri", r.path}}},
                 {"region", llvm::json::Object{{"startLine", b.line},
                                               {"startColumn", b.col},
                                               {"endLine", e.line},
                                               {"endColumn", e.col}}}}}};
      };
      llvm::json::Array related;
      for (const RelatedInfo &n : d.notes) {
        llvm::json::Object loc = region(n.range);
        loc["message"] = llvm::json::Object{{"text", n.message}};
        related.push_back(std::move(loc));
      }
      llvm::json::Object res{
          {"ruleId", "tlc"},
          {"level", sarifLevel(d.severity)},
          {"message", llvm::json::Object{{"text", d.message}}},
          {"locations", llvm::json::Array{region(d.range)}}};
      if (!related.empty())
        res["relatedLocations"] = std::move(related);
      if (const eval::ErrorCategory *c = r.analysis.categoryOf(d))
        res["properties"] = llvm::json::Object{
            {"category", c->category},
            {"raisedAt", c->atCompile ? "compile" : "definition"}};
      sarifResults.push_back(std::move(res));
    }
  llvm::json::Object sarif{
      {"version", "2.1.0"},
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"runs",
       llvm::json::Array{llvm::json::Object{
           {"tool",
            llvm::json::Object{
                {"driver",
                 llvm::json::Object{
                     {"name", "tlc-build"},
                     {"informationUri", "https://github.com/tile-ai/tilelang"},
                     {"rules", llvm::json::Array{llvm::json::Object{
                                   {"id", "tlc"}}}}}}}},
           {"results", std::move(sarifResults)}}}}};
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(sarif))) << '\n';
}

void tlc::driver::printHintsJson(llvm::ArrayRef<FileResult> results,
                                 llvm::raw_ostream &os) {
  // One compact object per line, keys in a fixed order, so that the output
  // is both valid JSON and easy to grep.
  os << "[";
  bool first = true;
  for (const FileResult &r : results) {
    for (const eval::Hint &h : r.analysis.hints) {
      os << (first ? "\n" : ",\n");
      first = false;
      Pos p = position(*r.tree, h.range.begin);
      llvm::json::OStream j(os);
      auto strOrNull = [&](llvm::StringRef key, const std::string &s) {
        if (s.empty())
          j.attribute(key, nullptr);
        else
          j.attribute(key, s);
      };
      j.object([&] {
        j.attribute("file", r.path);
        j.attribute("line", p.line);
        j.attribute("col", p.col);
        j.attribute("kernel", h.kernel);
        j.attribute("instance", h.instance);
        strOrNull("name", h.name);
        j.attribute("kind", h.kind);
        j.attributeArray("shape", [&] {
          for (size_t i = 0; i < h.shape.size(); ++i) {
            int64_t v = 0;
            if (h.shapeIsInt[i] &&
                !llvm::StringRef(h.shape[i]).getAsInteger(10, v))
              j.value(v);
            else
              j.value(h.shape[i]);
          }
        });
        strOrNull("dtype", h.dtype);
        strOrNull("scope", h.scope);
        strOrNull("layout", h.layout);
        if (!h.layoutDetail.empty())
          j.attribute("layoutDetail", h.layoutDetail);
        strOrNull("detail", h.detail);
        if (h.producerThreads)
          j.attribute("producerThreads", *h.producerThreads);
      });
    }
  }
  os << (first ? "]\n" : "\n]\n");
}
