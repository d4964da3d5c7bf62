//===- Exchanges.h - Fragment exchanges of the generated code --*- C++ -*-===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Where the CUDA code of a kernel instance moves a fragment through shared
// memory because a statement needs its elements in another thread's layout
// than the one its registers hold (a gemm accumulator read transposed, a
// copy between fragments laid out differently, scalar code reading an
// element only one thread holds). The CUDA printer chooses the fragments'
// layouts itself (its own propagation, which layout inference does not
// reproduce), so this reads what the printer prints: the instance is
// lowered and printed, and every exchange tile it declares is mapped back
// to the DSL statement through the source map. The printer also records
// the lanes' accesses of each tile (CudaEmitOptions::recordExchanges), whose
// worst bank-conflict degrees the report states. HIP targets print HIP
// code, whose tile is in LDS. The editor and `tlc-build --emit=hints`
// report each one as a hint.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DRIVER_EXCHANGES_H
#define TLC_DRIVER_EXCHANGES_H

#include "tlc/Eval/Eval.h"
#include "tlc/Syntax/SyntaxTree.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace mlir {
class Operation;
} // namespace mlir

namespace tlc::driver {

/// One exchange of a fragment through shared memory in the generated code,
/// its ops named by their position in a pre-order walk of the instance (so
/// that it applies to an equal IR built in another context; the layout
/// cache keeps it with the instance's layouts).
struct InstanceExchange {
  /// The statement the exchange belongs to (a T.Parallel, a T.copy, a
  /// T.cumsum, or the scalar read of an element).
  unsigned op = 0;
  /// The fragment's allocation (-1: not found in the instance).
  int root = -1;
  /// The fragment's name in the generated code.
  std::string name;
  /// Byte offset of the exchange tile in the kernel's shared memory.
  int64_t offset = 0;
  /// The registers are loaded back from the tile after the statement (a
  /// T.Parallel that writes the fragment there).
  bool loadBack = false;
  /// The code is HIP's: the tile is in CDNA's LDS.
  bool lds = false;
  /// The worst bank-conflict degree of the stores into the tile and of the
  /// loads from it, per warp (half wavefront on HIP) instruction, from the
  /// lane addresses the printed code computes (0: not known).
  int64_t storeDegree = 0, loadDegree = 0;
  /// Bytes per element of the tile.
  int64_t elementBytes = 0;
  /// The element (row-major index into the tile) each lane accesses in the
  /// worst store and the worst load instruction (-1: the lane is idle);
  /// all -1 when the degrees are not known. The editor's layout view draws
  /// them.
  std::array<int64_t, 32> storeLanes, loadLanes;
  InstanceExchange() {
    storeLanes.fill(-1);
    loadLanes.fill(-1);
  }
};

/// The layout the generated code holds a fragment in, where layout
/// inference chose another (the hint shows the code's).
struct PrinterFragmentLabel {
  /// The fragment's allocation, by its position in the instance's walk.
  unsigned op = 0;
  /// The hint's short label and long form.
  std::string shortLabel, longForm;
};

/// The fragment exchanges of instance \p top (its pre-order walk \p ops,
/// layouts attached) in the code printed for \p target: lowered and printed
/// on a copy, diagnostics dropped (what the printer cannot generate is
/// reported when building for it). Empty for targets other than CUDA's and
/// HIP's. With \p fragmentLabels, the fragments of an instance lowered here
/// whose printed layout differs from the inferred one are added to it.
std::vector<InstanceExchange> findInstanceExchanges(
    mlir::Operation *top, llvm::ArrayRef<mlir::Operation *> ops,
    llvm::StringRef target,
    std::vector<PrinterFragmentLabel> *fragmentLabels = nullptr);

/// Adds a hint-severity diagnostic (Severity::Remark) at the statement of
/// each exchange of \p exchanges (`C_local goes through shared memory
/// here: ...`) with a note at the fragment's allocation, and a
/// `fragment-exchange` hint with the same text, for instance \p ops
/// labelled \p instance. \p seen holds the (offset, message) pairs reported
/// already: one report per statement and text across instances.
void reportInstanceExchanges(eval::FileAnalysis &analysis,
                             const syntax::SyntaxTree &tree,
                             llvm::ArrayRef<mlir::Operation *> ops,
                             llvm::ArrayRef<InstanceExchange> exchanges,
                             const std::string &instance,
                             std::set<std::pair<uint32_t, std::string>> &seen);

} // namespace tlc::driver

#endif // TLC_DRIVER_EXCHANGES_H
