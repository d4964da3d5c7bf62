//===- DiagnosticsFile.cpp - tlc-build --diagnostics-file -----------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "DiagnosticsFile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace tlc;
using namespace tlc::build;

/// The elements of the JSON array driver::printDiagnostics writes for
/// \p results.
static llvm::json::Array
printedArray(llvm::ArrayRef<driver::FileResult> results) {
  std::string text;
  llvm::raw_string_ostream os(text);
  driver::printDiagnostics(results, driver::DiagFormat::Json,
                           /*showSourceLines=*/false, os);
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(text);
  if (!value) {
    llvm::consumeError(value.takeError());
    return {};
  }
  if (llvm::json::Array *array = value->getAsArray())
    return std::move(*array);
  return {};
}

/// The exception type a note of \p object says TileLang raises the
/// diagnostic as (CUDAEmitterGemm's noteRaisedAs: `tvm.error.X` gives X, a
/// builtin type itself), or "".
static std::string raisedAs(const llvm::json::Object &object) {
  const llvm::json::Array *notes = object.getArray("notes");
  if (!notes)
    return "";
  static constexpr llvm::StringLiteral prefix = "TileLang raises this as ";
  for (const llvm::json::Value &n : *notes) {
    const llvm::json::Object *note = n.getAsObject();
    std::optional<llvm::StringRef> message =
        note ? note->getString("message") : std::nullopt;
    if (!message || !message->starts_with(prefix))
      continue;
    llvm::StringRef type = message->drop_front(prefix.size());
    type.consume_front("tvm.error.");
    type = type.take_while([](char c) { return llvm::isAlnum(c) || c == '_'; });
    if (!type.empty())
      return type.str();
  }
  return "";
}

llvm::json::Array
build::diagnosticsJson(llvm::ArrayRef<driver::FileResult> results,
                       const BuildDiagnostics &diags) {
  llvm::json::Array all;
  if (diags.analysis)
    all = printedArray(results);
  for (size_t i = 0; i < diags.target.size() && i < results.size(); ++i) {
    for (const TargetDiagnostic &t : diags.target[i]) {
      // The same form as the analysis's: a one-diagnostic file result.
      driver::FileResult one;
      one.path = results[i].path;
      one.tree = results[i].tree;
      one.diagnostics.push_back(t.diag);
      for (llvm::json::Value &v : printedArray(one)) {
        llvm::json::Object *o = v.getAsObject();
        if (!o)
          continue;
        (*o)["stage"] =
            t.stage == TargetStage::Lowering ? "lowering" : "artifact";
        std::string category = raisedAs(*o);
        if (!category.empty()) {
          (*o)["category"] = category;
          (*o)["raisedAt"] = "compile";
        }
        if (t.toolFailure)
          (*o)["toolFailure"] = true;
        all.push_back(std::move(v));
      }
    }
  }
  for (const std::string &child : diags.childFiles) {
    auto buffer = llvm::MemoryBuffer::getFile(child);
    if (!buffer)
      continue;
    llvm::Expected<llvm::json::Value> value =
        llvm::json::parse((*buffer)->getBuffer());
    if (!value) {
      llvm::consumeError(value.takeError());
      continue;
    }
    if (llvm::json::Array *array = value->getAsArray())
      for (llvm::json::Value &v : *array)
        all.push_back(std::move(v));
  }
  return all;
}

bool build::writeDiagnosticsFile(llvm::StringRef path,
                                 llvm::ArrayRef<driver::FileResult> results,
                                 const BuildDiagnostics &diags) {
  llvm::json::Array array = diagnosticsJson(results, diags);
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    llvm::errs() << "tlc-build: error: cannot write '" << path
                 << "': " << ec.message() << "\n";
    return false;
  }
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(array))) << '\n';
  return true;
}
