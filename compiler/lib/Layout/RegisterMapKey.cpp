//===- RegisterMapKey.cpp - Memo key of a register map --------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Layout/RegisterMapKey.h"

#include "llvm/Support/raw_ostream.h"

std::string tlc::layout::registerMapKey(const FragmentTables *loop,
                                        const FragmentTables *buf,
                                        llvm::ArrayRef<unsigned> dims,
                                        llvm::ArrayRef<int64_t> bound) {
  std::string key;
  llvm::raw_string_ostream os(key);
  os << static_cast<const void *>(loop) << '/'
     << static_cast<const void *>(buf);
  for (unsigned d : dims)
    os << ',' << d;
  if (!bound.empty())
    os << "/box";
  for (int64_t e : bound)
    os << ',' << e;
  return key;
}
