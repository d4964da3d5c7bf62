//===- EnvironReport.cpp - Which environment variables a build read -------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "EnvironReport.h"

#include "llvm/Support/JSON.h"

using namespace tlc;

/// The `reads` array of \p names.
static llvm::json::Array readsArray(llvm::ArrayRef<std::string> names) {
  llvm::json::Array reads;
  for (const std::string &name : names)
    reads.push_back(name);
  return reads;
}

void build::writeEnvironReport(llvm::ArrayRef<driver::FileResult> results,
                               llvm::raw_ostream &os) {
  llvm::json::Array files;
  for (const driver::FileResult &r : results) {
    llvm::json::Array instances;
    for (const eval::InstanceInfo &info : r.analysis.instances)
      instances.push_back(
          llvm::json::Object{{"kernel", info.kernel},
                             {"instance", info.label},
                             {"reads", readsArray(info.environReads)},
                             {"all", info.environReadAll}});
    files.push_back(
        llvm::json::Object{{"file", r.path},
                           {"reads", readsArray(r.analysis.environReads)},
                           {"all", r.analysis.environReadAll},
                           {"instances", std::move(instances)}});
  }
  os << llvm::json::Value(
            llvm::json::Object{{"version", 1}, {"files", std::move(files)}})
     << "\n";
}
