//===- Inputs.cpp - tlc-build's analysis of its inputs --------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Inputs.h"
#include "EnvironReport.h"

#include "tlc/Target/HIP/HIPTarget.h"

#include "llvm/Support/raw_ostream.h"

namespace tlc::build {

std::unique_ptr<llvm::MemoryBuffer> readInput(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/false,
                                                   /*RequiresNullTerminator=*/
                                                   false);
  if (!buffer) {
    llvm::errs() << path
                 << ": error: cannot read file: " << buffer.getError().message()
                 << '\n';
    return nullptr;
  }
  return std::move(*buffer);
}

/// The architectures \p parsed lists, or an error line naming \p what and
/// \p targetName.
static bool readArchitectures(llvm::StringRef what, llvm::StringRef targetName,
                              llvm::Expected<std::vector<std::string>> parsed,
                              std::vector<std::string> &archs) {
  if (!parsed) {
    llvm::errs() << "tlc-build: error: " << what << ": --target=" << targetName
                 << ": " << llvm::toString(parsed.takeError()) << "\n";
    return false;
  }
  archs = std::move(*parsed);
  return true;
}

bool readCudaArchitectures(llvm::StringRef what, llvm::StringRef targetName,
                           std::vector<std::string> &archs) {
  return readArchitectures(
      what, targetName,
      target::parseCudaArchitectures(targetName.drop_front(5)), archs);
}

bool readHipArchitectures(llvm::StringRef what, llvm::StringRef targetName,
                          std::vector<std::string> &archs) {
  return readArchitectures(
      what, targetName, target::parseHipArchitectures(targetName.drop_front(4)),
      archs);
}

ReportFiles &reportFiles() {
  static ReportFiles files;
  return files;
}

/// Writes \p results' report to the --environ-report file, if any; false
/// (after an error line) when it cannot be written.
static bool writeEnvironReportFile(llvm::ArrayRef<driver::FileResult> results) {
  if (reportFiles().environ.empty())
    return true;
  std::error_code ec;
  llvm::raw_fd_ostream os(reportFiles().environ, ec);
  if (ec) {
    llvm::errs() << "tlc-build: error: cannot write '" << reportFiles().environ
                 << "': " << ec.message() << "\n";
    return false;
  }
  build::writeEnvironReport(results, os);
  return true;
}

bool analyzeInputs(driver::Driver &drv, llvm::ArrayRef<std::string> inputs,
                   std::vector<driver::FileResult> &results, bool quiet) {
  const driver::DriverOptions &opts = drv.getOptions();
  for (const std::string &path : inputs) {
    std::unique_ptr<llvm::MemoryBuffer> buffer = readInput(path);
    if (!buffer)
      return false;
    results.push_back(drv.analyze(path, buffer->getBuffer()));
  }
  if (quiet)
    return true;
  driver::printDiagnostics(results, opts.format, opts.showSourceLines,
                           llvm::errs());
  if (!reportFiles().diagnostics.empty()) {
    std::error_code ec;
    llvm::raw_fd_ostream os(reportFiles().diagnostics, ec);
    if (ec) {
      llvm::errs() << "tlc-build: error: cannot write '"
                   << reportFiles().diagnostics << "': " << ec.message()
                   << "\n";
      return false;
    }
    driver::printDiagnostics(results, driver::DiagFormat::Json, false, os);
  }
  return writeEnvironReportFile(results);
}

} // namespace tlc::build
