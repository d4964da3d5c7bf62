//===- SharedMemoryLimits.cpp - Shared memory a block may use -------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Target/Artifact/SharedMemoryLimits.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using namespace tlc::artifact;

int64_t tlc::artifact::getCudaSharedMemoryPerBlock(unsigned cc) {
  switch (cc) {
  case 80:
  case 87:
    return 163 * 1024;
  case 86:
  case 89:
    return 99 * 1024;
  default:
    if (cc >= 120)
      return 99 * 1024;
    if (cc >= 90)
      return 227 * 1024;
    return cc >= 70 ? 96 * 1024 : 48 * 1024;
  }
}

int64_t tlc::artifact::getHipLdsPerWorkgroup(llvm::StringRef arch) {
  return arch == "gfx950" ? 160 * 1024 : 64 * 1024;
}

std::optional<int64_t>
tlc::artifact::getSharedMemoryPerBlock(llvm::StringRef target) {
  auto [platform, archs] = target.split(':');
  if (archs.empty() || (platform != "cuda" && platform != "hip"))
    return std::nullopt;
  llvm::SmallVector<llvm::StringRef> list;
  archs.split(list, ',');
  std::optional<int64_t> least;
  for (llvm::StringRef arch : list) {
    int64_t limit = 0;
    if (platform == "hip") {
      if (!arch.starts_with("gfx"))
        return std::nullopt;
      limit = getHipLdsPerWorkgroup(arch);
    } else {
      // sm_90a, sm_100f: the digits after "sm_".
      llvm::StringRef digits = arch;
      if (!digits.consume_front("sm_"))
        return std::nullopt;
      unsigned cc = 0;
      if (digits.take_while(llvm::isDigit).getAsInteger(10, cc))
        return std::nullopt;
      limit = getCudaSharedMemoryPerBlock(cc);
    }
    least = least ? std::min(*least, limit) : limit;
  }
  return least;
}
