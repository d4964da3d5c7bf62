//===- DecodeSource.cpp - Print a file decoded as tlc decodes it ----------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Test helper of `syntax-codec-diff`: `tlc-decode-source FILE` writes the
// UTF-8 text syntax::decodeSource() makes of FILE to stdout and its
// diagnostics to stderr as `BEGIN-END: message`, one per line.
//
//===----------------------------------------------------------------------===//

#include "tlc/Syntax/SourceEncoding.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace tlc;

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: tlc-decode-source FILE\n";
    return 2;
  }
  auto buffer = llvm::MemoryBuffer::getFile(argv[1], /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    llvm::errs() << argv[1] << ": " << buffer.getError().message() << '\n';
    return 2;
  }
  syntax::DecodedSource decoded = syntax::decodeSource((*buffer)->getBuffer());
  llvm::outs() << decoded.text;
  for (const Diagnostic &d : decoded.diagnostics)
    llvm::errs() << d.range.begin << '-' << d.range.end << ": " << d.message
                 << '\n';
  return 0;
}
