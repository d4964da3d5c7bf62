//===- RegisterMapKey.h - Memo key of a register map ------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The exchange planning (tile::chooseFragmentExchanges) and the CUDA/HIP
// printer (Emitter::fragmentIndex) both remember, per kernel, how one
// fragment layout's registers follow another's (layout::mapRegisters,
// FragmentRegisters.h), asked once per pair of layouts, dimensions and box.
// This is the one key both remember it under.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LAYOUT_REGISTERMAPKEY_H
#define TLC_LAYOUT_REGISTERMAPKEY_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <string>

namespace tlc::layout {

struct FragmentTables;

/// The key under which mapRegisters' answer for the loop layout's tables
/// \p loop, the accessed layout's tables \p buf, the access dimensions
/// \p dims and the box \p bound may be remembered: the answer depends on
/// nothing else. Tables are named by their address, so a key holds only
/// while both tables live (the planning and the printer keep them for the
/// kernel they remember answers for).
std::string registerMapKey(const FragmentTables *loop,
                           const FragmentTables *buf,
                           llvm::ArrayRef<unsigned> dims,
                           llvm::ArrayRef<int64_t> bound);

} // namespace tlc::layout

#endif // TLC_LAYOUT_REGISTERMAPKEY_H
