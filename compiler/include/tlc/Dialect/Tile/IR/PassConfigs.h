//===- PassConfigs.h - What a kernel asks of its build ----------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A `tile.func` carries the compiler switches its source asked for, as
// TileLang spells them: `tile.pass_configs`, a dictionary from pass-config
// key ("tl.disable_wgmma") to the value as Python prints it ("True",
// "64"), from `pass_configs=` of `@tilelang.jit` / `tilelang.compile`,
// `T.annotate_pass_configs` and `tlc-build --pass-config`; and
// `tile.compile_flags`, the device-compiler flags of `compile_flags=`,
// `T.annotate_compile_flags`, `tl.device_compile_flags` and `tlc-build
// --compile-flag`; and `tile.imported_sources`, the device source text of
// `T.import_source` calls and `T.Kernel(prelude=...)`, in trace order, that
// back ends print ahead of the kernel for its `T.call_extern` calls.
// Passes and back ends read them through these helpers; docs/STATUS.md
// lists the keys tlc acts on.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DIALECT_TILE_IR_PASSCONFIGS_H
#define TLC_DIALECT_TILE_IR_PASSCONFIGS_H

#include "mlir/IR/Operation.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tlc::tile {

/// Records \p configs and \p compileFlags on \p func (nothing when empty).
void setBuildConfigs(
    mlir::Operation *func,
    llvm::ArrayRef<std::pair<std::string, std::string>> configs,
    llvm::ArrayRef<std::string> compileFlags);

/// The value of pass config \p key on \p func (or on the function holding
/// \p op), if it was given.
std::optional<llvm::StringRef> getPassConfig(mlir::Operation *op,
                                             llvm::StringRef key);

/// Whether pass config \p key is given a true value ("True", "true" or a
/// nonzero integer), as Python's bool() of TileLang's value would be.
bool isPassConfigOn(mlir::Operation *op, llvm::StringRef key);

/// The device-compiler flags of \p func (or of the function holding \p op).
std::vector<std::string> getCompileFlags(mlir::Operation *op);

/// Records the imported source texts \p sources on \p func (nothing when
/// empty).
void setImportedSources(mlir::Operation *func,
                        llvm::ArrayRef<std::string> sources);

/// The imported source texts of \p func (or of the function holding \p op),
/// in the order the program gave them.
std::vector<std::string> getImportedSources(mlir::Operation *op);

} // namespace tlc::tile

#endif // TLC_DIALECT_TILE_IR_PASSCONFIGS_H
