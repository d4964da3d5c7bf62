//===- npy-read.cpp - Read a .npy file as tlc-run does --------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `tlc-npy-read DTYPE IN OUT`: reads IN with HostTensor::readNpy as a tensor
// of DTYPE and writes what it read to OUT (writeNpy), or prints
// `error: MESSAGE` and exits 1. check_npy.py writes IN with NumPy and
// compares OUT with NumPy's own reading of IN.
//
//===----------------------------------------------------------------------===//

#include "tlc/runtime/HostTensor.h"

#include "llvm/Support/raw_ostream.h"

using namespace tlc::runtime;

int main(int argc, char **argv) {
  if (argc != 4) {
    llvm::errs() << "usage: tlc-npy-read DTYPE IN OUT\n";
    return 2;
  }
  std::optional<DType> dtype = lookupDType(argv[1]);
  if (!dtype) {
    llvm::errs() << "error: unknown dtype '" << argv[1] << "'\n";
    return 2;
  }
  auto t = HostTensor::readNpy(argv[2], *dtype);
  if (!t) {
    llvm::errs() << "error: " << llvm::toString(t.takeError()) << "\n";
    return 1;
  }
  if (llvm::Error e = t->writeNpy(argv[3])) {
    llvm::errs() << "error: " << llvm::toString(std::move(e)) << "\n";
    return 1;
  }
  return 0;
}
