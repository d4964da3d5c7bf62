//===- FragmentRegisters.h - Which register holds a loop's element -*- C++
//-*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Whether the GPU code can read a fragment in the registers of the thread
// that runs an iteration: a loop partitioned by one fragment layout visits
// slot (thread, register) of that layout, and an access of another
// fragment at the same coordinates is a register of the same thread only
// when the other layout puts the element there. The answer is a map from
// the loop's register to the accessed fragment's, fitted linear in the
// register bits so the printed code indexes with constants. The exchange
// planning (which fragments go through shared memory) and the printers ask
// the same questions here.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LAYOUT_FRAGMENTREGISTERS_H
#define TLC_LAYOUT_FRAGMENTREGISTERS_H

#include "tlc/Layout/BitLinear.h"
#include "tlc/Layout/Fragment.h"
#include "tlc/Layout/FragmentTables.h"

#include "llvm/ADT/ArrayRef.h"

namespace tlc::layout {

/// A fragment layout as the GPU code indexes it.
struct IndexedFragment {
  /// The layout.
  const Fragment *layout = nullptr;
  /// Its tables, `coords` fitted to the buffer's rank; null only where the
  /// layout is evaluated slot by slot instead (an accessed fragment).
  const FragmentTables *tables = nullptr;
  /// The fitted inverse (thread, register) -> coordinate (tables->coords).
  const BitLinear *coords = nullptr;
  /// The buffer's shape.
  llvm::ArrayRef<int64_t> shape;
};

/// A dimension of an access that is a unit dimension read at 0.
inline constexpr unsigned kUnitAccessDim = ~0u;

/// How the accessed fragment's registers follow the loop's.
struct RegisterMap {
  enum class Kind : uint8_t {
    /// The accessed register is the loop's register itself.
    Same,
    /// The accessed register is `fit` of the loop's register.
    Mapped,
    /// A slot's element is held by another thread (or by no register).
    OtherThread,
    /// Every element is the thread's own, but the register map is not
    /// linear in the register bits.
    NotLinear,
  };
  Kind kind = Kind::OtherThread;
  /// Kind::Mapped: register -> register, one output.
  BitLinear fit;

  /// Whether the access reads the thread's own registers.
  bool isOwn() const { return kind == Kind::Same || kind == Kind::Mapped; }
};

/// The register of \p buf holding the element that slot (thread, r) of
/// \p loop visits, \p buf dimension d being loop dimension dims[d]
/// (kUnitAccessDim: a unit dimension read at 0). A non-empty \p bound
/// limits the loop to the slots whose coordinates lie below it; registers
/// no slot in it visits take their first held slot's register.
RegisterMap mapRegisters(const IndexedFragment &loop,
                         const IndexedFragment &buf,
                         llvm::ArrayRef<unsigned> dims,
                         llvm::ArrayRef<int64_t> bound = {});

/// Whether every one of \p threads threads holds all of \p f, its
/// registers row-major (a fragment scalar code may index anywhere).
bool isWholeInEveryThread(const IndexedFragment &f, int64_t threads);

} // namespace tlc::layout

#endif // TLC_LAYOUT_FRAGMENTREGISTERS_H
