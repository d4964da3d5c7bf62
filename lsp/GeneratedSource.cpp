//===- GeneratedSource.cpp - Generated code of one kernel instance --------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The compiler runs in a fresh MLIRContext per request: facts analyses
// drop their Tile IR at once (keeping every open document's module would
// cost memory for a feature used now and then), so a generated view
// re-evaluates the file, restricted to the one kernel (a few milliseconds).
//
//===----------------------------------------------------------------------===//

#include "GeneratedSource.h"
#include "Features.h"

#include "tlc/Dialect/Tile/IR/TileDialect.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"
#include "tlc/Eval/Eval.h"
#include "tlc/Support/LineIndex.h"
#include "tlc/Syntax/SyntaxTree.h"
#ifdef TLC_LSP_HAVE_CUDA
#include "tlc/Dialect/Tile/Transforms/Passes.h"
#include "tlc/Target/CUDA/CUDAEmitter.h"
#endif
#include "tlc/Target/Cpp/CppEmitter.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA1.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>
#include <unistd.h>

using namespace tlc;
using namespace tlc::lsp;

Result<GeneratedKind> tlc::lsp::parseGeneratedTarget(llvm::StringRef target) {
  if (target == "cpu")
    return GeneratedKind::Cpp;
  if (target == "cuda" || target.starts_with("cuda:"))
    return GeneratedKind::Cuda;
  if (target == "hip" || target.starts_with("hip:"))
    return GeneratedKind::Hip;
  if (target == "tile")
    return GeneratedKind::TileIR;
  std::string supported = "generated source is available for the targets "
                          "`cpu`, `cuda:*`, `hip:*` and `tile` (Tile IR)";
  return Failure{FailureKind::InvalidParams,
                 "unknown target '" + target.str() + "': " + supported};
}

std::string tlc::lsp::getDefaultCacheDir() {
  if (const char *dir = std::getenv("TLC_LSP_CACHE_DIR"); dir && *dir)
    return dir;
  llvm::SmallString<256> path;
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) {
    path = xdg;
  } else if (const char *home = std::getenv("HOME"); home && *home) {
    path = home;
    llvm::sys::path::append(path, ".cache");
  }
  if (!path.empty()) {
    llvm::sys::path::append(path, "tlc", "lsp");
    return std::string(path);
  }
  return "/tmp/tlc-lsp-" + std::to_string(getuid());
}

namespace {

/// A `file://` URI for an absolute path (percent-encoding what needs it).
std::string toFileUri(llvm::StringRef path) {
  std::string uri = "file://";
  for (unsigned char c : path) {
    if (llvm::isAlnum(c) || llvm::StringRef("/-_.~").contains(c)) {
      uri += static_cast<char>(c);
    } else {
      uri += '%';
      uri += llvm::hexdigit(c >> 4, /*LowerCase=*/false);
      uri += llvm::hexdigit(c & 15, /*LowerCase=*/false);
    }
  }
  return uri;
}

/// A file name for the DSL document: its stem plus a hash of the URI, so
/// that equal names in different folders do not collide.
std::string documentDirName(llvm::StringRef uri) {
  llvm::StringRef stem = llvm::sys::path::stem(uri);
  auto digest = llvm::SHA1::hash(llvm::arrayRefFromStringRef(uri));
  std::string hash = llvm::toHex(digest, /*LowerCase=*/true).substr(0, 10);
  std::string name;
  for (char c : stem)
    name += llvm::isAlnum(c) || c == '_' || c == '-' ? c : '_';
  return (name.empty() ? std::string("doc") : name) + "-" + hash;
}

/// Writes `text` to `path` through a temporary file (readers never see a
/// partial file). Returns an error message, empty on success.
std::string writeAtomically(llvm::StringRef path, llvm::StringRef text) {
  std::string tmp = (path + ".tmp" + llvm::Twine(getpid())).str();
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(tmp, ec);
    if (ec)
      return "cannot write " + tmp + ": " + ec.message();
    os << text;
    os.close();
    if (os.has_error())
      return "cannot write " + tmp + ": " + os.error().message();
  }
  if (std::error_code ec = llvm::sys::fs::rename(tmp, path))
    return "cannot write " + path.str() + ": " + ec.message();
  return "";
}

/// A generated text with its source map in DSL byte ranges.
struct Emitted {
  std::string text;
  /// (zero-based generated line, DSL byte range).
  std::vector<std::pair<uint32_t, TextRange>> map;
};

/// DSL byte range of a 1-based, UTF-8-column range of `lines`.
TextRange toTextRange(const LineIndex &lines, unsigned line, unsigned col,
                      unsigned endLine, unsigned endCol) {
  auto at = [&](unsigned l, unsigned c) {
    return lines.fromUtf8(LinePosition{l ? l - 1 : 0, c ? c - 1 : 0});
  };
  TextRange r{at(line, col), at(endLine, endCol)};
  if (r.end < r.begin)
    r.end = r.begin;
  return r;
}

/// Converts an emitter's source map (1-based generated lines).
void addSourceMap(Emitted &out, const LineIndex &lines,
                  const std::vector<artifact::SourceMapEntry> &map) {
  for (const artifact::SourceMapEntry &e : map)
    if (e.generatedLine > 0 && e.line > 0)
      out.map.push_back({e.generatedLine - 1,
                         toTextRange(lines, e.line, e.column, e.endLine,
                                     e.endColumn)});
}

/// The Tile IR of `func`, mapped through the printer's op locations.
Emitted printTileIR(tile::FuncOp func, const LineIndex &lines,
                    llvm::StringRef header) {
  Emitted out;
  mlir::AsmState::LocationMap locations;
  mlir::OpPrintingFlags flags;
  mlir::AsmState state(func, flags, &locations);
  llvm::raw_string_ostream os(out.text);
  os << header;
  func->print(os, state);
  os << '\n';
  unsigned shift = llvm::StringRef(header).count('\n');
  for (auto &[op, lineCol] : locations) {
    mlir::FileLineColRange r = tlc::tile::getSourceLocation(op->getLoc());
    if (!r || lineCol.first == 0)
      continue;
    out.map.push_back({lineCol.first - 1 + shift,
                       toTextRange(lines, r.getStartLine(),
                                   r.getStartColumn(), r.getEndLine(),
                                   r.getEndColumn())});
  }
  std::sort(out.map.begin(), out.map.end(),
            [](const auto &a, const auto &b) { return a.first < b.first; });
  return out;
}

/// The innermost statement containing byte `offset` (null when none does).
syntax::Node innermostStatement(const syntax::SyntaxTree &tree,
                                       uint32_t offset) {
  for (syntax::Node n = tree.findNode(offset); n; n = n.parent())
    if (syntax::isStatement(n.kind()))
      return n;
  return syntax::Node();
}

/// The range of `stmt` without its body: a compound statement ends with
/// the line before its first body statement.
TextRange headerRange(const syntax::SyntaxTree &tree,
                             syntax::Node stmt) {
  TextRange r = stmt.range();
  syntax::Node body = stmt.child(syntax::Field::body);
  if (!body)
    return r;
  const LineIndex &lines = tree.lines();
  uint32_t bodyLine = lines.getLine(body.range().begin);
  if (bodyLine > lines.getLine(r.begin))
    r.end = std::min(r.end, lines.getLineEnd(bodyLine - 1));
  else
    r.end = std::min(r.end, body.range().begin);
  return r;
}

} // namespace

Result<GeneratedFile>
tlc::lsp::generateSource(const Document &doc, const KernelFact &kernel,
                         unsigned instance, GeneratedKind kind,
                         llvm::StringRef target, llvm::StringRef cacheDir) {
  if (instance >= kernel.instances.size())
    return Failure{FailureKind::InvalidParams,
                   "kernel " + kernel.name + " has no instance " +
                       std::to_string(instance + 1)};
  const std::string &label = kernel.instances[instance].label;
  const syntax::SyntaxTree &tree = *doc.getTree();

  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  eval::loadEvalDialects(context);
  std::string errors;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
    if (d.getSeverity() != mlir::DiagnosticSeverity::Error)
      return mlir::success();
    if (!errors.empty())
      errors += "; ";
    if (mlir::FileLineColRange r = tlc::tile::getSourceLocation(d.getLocation()))
      errors += std::to_string(r.getStartLine()) + ":" +
                std::to_string(r.getStartColumn()) + ": ";
    errors += d.str();
    return mlir::success();
  });

  eval::EvalOptions options;
  std::string evalTarget = kind == GeneratedKind::Cpp ? "cpu" : target.str();
  if (auto info = eval::TargetInfo::parse(evalTarget))
    options.target = *info;
  options.kernelFilter = kernel.name;
  eval::FileAnalysis analysis = eval::analyzeFile(tree, context, options);
  if (!analysis.module)
    return Failure{FailureKind::Failed, "no Tile IR for " + kernel.name};

  // Instances and functions are created together, in the same order.
  tile::FuncOp func;
  unsigned index = 0;
  std::vector<tile::FuncOp> funcs;
  for (tile::FuncOp f : analysis.module->getOps<tile::FuncOp>())
    funcs.push_back(f);
  for (const eval::InstanceInfo &info : analysis.instances) {
    if (info.kernel == kernel.name && info.label == label &&
        index < funcs.size())
      func = funcs[index];
    ++index;
  }
  if (!func)
    return Failure{FailureKind::ContentModified,
                   "instance " + label + " of " + kernel.name +
                       " no longer exists"};
  for (const Diagnostic &d : analysis.diagnostics)
    if (d.severity == Severity::Error && kernel.range.begin <= d.range.begin &&
        d.range.end <= kernel.range.end) {
      LinePosition at = tree.lines().toUtf8(d.range.begin);
      return Failure{FailureKind::Failed,
                     kernel.name + " has errors (" +
                         std::to_string(at.line + 1) + ":" +
                         std::to_string(at.column + 1) + ": " + d.message +
                         "); fix them to see generated code"};
    }

  GeneratedFile file;
  Emitted emitted;
  const LineIndex &lines = tree.lines();
  std::string ext;
  switch (kind) {
  case GeneratedKind::Cpp: {
    mlir::FailureOr<target::CppKernel> cpp = target::emitCpuKernel(func);
    if (mlir::failed(cpp))
      return Failure{FailureKind::Failed,
                     "cannot generate C++ for " + label + ": " + errors};
    emitted.text = std::move(cpp->source);
    addSourceMap(emitted, lines, cpp->sourceMap);
    file.language = "cpp";
    ext = ".cpp";
    break;
  }
  case GeneratedKind::Cuda:
  case GeneratedKind::Hip: {
#ifndef TLC_LSP_HAVE_CUDA
    return Failure{FailureKind::Failed,
                   "this tlc-lsp was built without the GPU printer "
                   "(TLC_LSP_CUDA=OFF)"};
#else
    bool hip = kind == GeneratedKind::Hip;
    std::string language = hip ? "HIP" : "CUDA";
    // The printer reads the plan of the GPU lowering passes.
    auto module = func->getParentOfType<mlir::ModuleOp>();
    if (module)
      tile::setGpuTarget(module, options.target.name);
    if (!module || mlir::failed(tile::runGpuLowering(module)) ||
        tile::hasLoweringFailed(func))
      return Failure{FailureKind::Failed,
                     "cannot generate " + language + " for " + label + ": " +
                         errors};
    target::CudaEmitOptions emitOptions;
    if (hip)
      emitOptions.language = &target::GPULanguage::hip();
    mlir::FailureOr<target::CudaKernel> cu =
        target::emitCudaKernel(func, emitOptions);
    if (mlir::failed(cu))
      return Failure{FailureKind::Failed,
                     "cannot generate " + language + " for " + label + ": " +
                         errors};
    emitted.text = std::move(cu->source);
    addSourceMap(emitted, lines, cu->sourceMap);
    file.language = hip ? "hip" : "cuda";
    ext = hip ? ".hip" : ".cu";
    break;
#endif
  }
  case GeneratedKind::TileIR:
    emitted = printTileIR(func, lines,
                          "// Tile IR of " + label + " (target " +
                              options.target.name +
                              "), generated by tlc-lsp. Do not edit.\n");
    file.language = "mlir";
    ext = ".mlir";
    break;
  }

  llvm::SmallString<256> dir(cacheDir);
  llvm::sys::path::append(dir, documentDirName(doc.getUri()));
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return Failure{FailureKind::Failed, "cannot create cache directory " +
                                            std::string(dir) + ": " +
                                            ec.message()};
  llvm::SmallString<256> path(dir);
  std::string name = kernel.name;
  if (instance > 0)
    name += "-" + std::to_string(instance + 1);
  llvm::sys::path::append(path, name + ext);
  if (std::string err = writeAtomically(path, emitted.text); !err.empty())
    return Failure{FailureKind::Failed, err};
  if (kind == GeneratedKind::Cpp) {
    // The generated C++ includes the device header: put it next to it so
    // that the file compiles as it is.
    llvm::SmallString<256> header(dir);
    llvm::sys::path::append(header, "tlc_cpu.h");
    if (!llvm::sys::fs::exists(header))
      (void)writeAtomically(header, target::getCpuDeviceHeader());
  }

  file.path = std::string(path);
  file.uri = toFileUri(file.path);
  file.dslUri = doc.getUri();
  file.dslVersion = doc.getVersion();
  file.text = std::move(emitted.text);
  for (auto &[line, range] : emitted.map) {
    MappedLine mapped{line, range, doc.toRange(range), TextRange{0, 0},
                      doc.toRange(range)};
    if (syntax::Node stmt = innermostStatement(tree, range.begin)) {
      mapped.statement = stmt.range();
      mapped.statementRange = doc.toRange(headerRange(tree, stmt));
    }
    file.lines.push_back(std::move(mapped));
  }
  std::stable_sort(file.lines.begin(), file.lines.end(),
                   [](const MappedLine &a, const MappedLine &b) {
                     return a.line < b.line;
                   });
  return file;
}

std::vector<TextRange> tlc::lsp::getStatementsAt(const syntax::SyntaxTree &tree,
                                                uint32_t offset) {
  std::vector<TextRange> result;
  for (syntax::Node n = findNodeAt(tree, offset); n; n = n.parent())
    if (syntax::isStatement(n.kind()))
      result.push_back(n.range());
  return result;
}

Range tlc::lsp::findGeneratedRange(const GeneratedFile &file, uint32_t offset,
                                   const std::vector<TextRange> &statements,
                                   PositionEncoding encoding) {
  // The lines generated from one statement (and the statements nested in
  // it), first to last.
  auto linesOf = [&](const TextRange &stmt) -> std::optional<Range> {
    std::optional<uint32_t> first, last;
    for (const MappedLine &l : file.lines)
      if (stmt.begin <= l.statement.begin && l.statement.end <= stmt.end &&
          !l.statement.empty()) {
        first = first ? std::min(*first, l.line) : l.line;
        last = last ? std::max(*last, l.line) : l.line;
      }
    if (!first)
      return std::nullopt;
    return Range{Position{*first, 0}, Position{*last, 0}};
  };
  std::optional<Range> range;
  for (const TextRange &stmt : statements)
    if ((range = linesOf(stmt)))
      break;
  if (!range) {
    // The first statement after the offset.
    const MappedLine *next = nullptr;
    for (const MappedLine &l : file.lines)
      if (l.dsl.begin >= offset && (!next || l.dsl.begin < next->dsl.begin))
        next = &l;
    if (next)
      range = linesOf(next->statement);
  }
  if (!range)
    return Range{};
  LineIndex index(file.text);
  // Never past the last line that has text (a map may name the line after
  // the final newline).
  uint32_t lastLine = index.getNumLines() - 1;
  while (lastLine > 0 && index.getLineText(lastLine).empty())
    --lastLine;
  range->end.line = std::max(range->start.line,
                             std::min(range->end.line, lastLine));
  uint32_t endOffset = index.getLineEnd(range->end.line);
  LinePosition end = encoding == PositionEncoding::Utf8
                         ? index.toUtf8(endOffset)
                         : index.toUtf16(endOffset);
  range->end = Position{end.line, end.column};
  return *range;
}

std::optional<Range> tlc::lsp::findOriginalRange(const GeneratedFile &file,
                                                 uint32_t line) {
  const MappedLine *best = nullptr;
  for (const MappedLine &l : file.lines) {
    if (l.line > line)
      break;
    if (!best || l.line > best->line ||
        l.dsl.end - l.dsl.begin < best->dsl.end - best->dsl.begin)
      best = &l;
  }
  if (!best)
    return std::nullopt;
  return best->statementRange;
}

void GeneratedFileRegistry::add(GeneratedFile file) {
  std::lock_guard<std::mutex> lock(mutex);
  files.remove_if([&](const GeneratedFile &f) { return f.uri == file.uri; });
  files.push_front(std::move(file));
  if (files.size() > kMaxFiles)
    files.pop_back();
}

std::optional<GeneratedFile>
GeneratedFileRegistry::find(const std::string &uri) const {
  std::lock_guard<std::mutex> lock(mutex);
  for (const GeneratedFile &f : files)
    if (f.uri == uri)
      return f;
  return std::nullopt;
}
