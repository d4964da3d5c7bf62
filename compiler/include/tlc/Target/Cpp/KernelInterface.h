//===- KernelInterface.h - Launch interface of a tile.func ------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What every target records about a kernel instance in its manifest, read
// off the Tile IR: parameters (name, dtype, shape with symbols, role),
// the open symbols and the launches (grid and block expressions, dynamic
// shared memory).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_TARGET_CPP_KERNELINTERFACE_H
#define TLC_TARGET_CPP_KERNELINTERFACE_H

#include "tlc/Target/Artifact/Artifact.h"
#include "tlc/Target/Artifact/Manifest.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Value.h"
#include "mlir/IR/Visitors.h"
#include "mlir/Support/LLVM.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tlc {
namespace tile {
class BufferType;
class FuncOp;
} // namespace tile

namespace target {

/// The symbols of \p func in entry-point order: the declared `symbols(...)`
/// first, then any other symbol a tensor parameter's extent uses.
std::vector<std::string> collectKernelSymbols(tile::FuncOp func);

/// The Python name of parameter \p index of \p func (its NameLoc), or
/// `arg<index>`.
std::string getParamName(tile::FuncOp func, unsigned index);

/// How \p func uses global buffer argument \p index: an explicit
/// `tile.role` argument attribute ("in", "out", "inout") wins; otherwise
/// written and never read is `out`, written and read is `inout`, else `in`.
artifact::Role inferParamRole(tile::FuncOp func, unsigned index);

/// \p value (an `index` computed from constants and symbols by `arith`
/// ops) as extent text (`128`, `ceildiv(M, 128)`); failure for anything
/// else.
mlir::FailureOr<artifact::Extent> getExtentOf(mlir::Value value);

/// The extents of \p type as manifest extents (integers or symbol names).
/// An unknown extent (`?`) has no manifest form: then the result is empty
/// and \p unknownDim, when given, names the first such dimension.
std::optional<std::vector<artifact::Extent>>
getManifestShape(tile::BufferType type, unsigned *unknownDim = nullptr);

/// The manifest fields that come from the IR: kernel name, source file,
/// symbols, params and launches. Fails with a diagnostic on \p func for
/// parameters or launches that cannot be described.
mlir::FailureOr<artifact::Manifest> describeKernel(tile::FuncOp func);

/// Whether a back end passes over \p func: a declaration; a function a
/// lowering step already diagnosed (tile::hasLoweringFailed; clears \p ok);
/// or a default instance no code can be generated for
/// (tile::getUnboundTileParameters), with a warning that says so — an error
/// that clears \p ok when a \p kernelFilter is given (the analysis kept
/// only the instances it selects, so the user asked for this one). With
/// \p needsKernel (the GPU targets), also a function with no T.Kernel: it
/// launches nothing, so there is no device code to build (a warning; an
/// error under a \p kernelFilter); and a default instance whose thread
/// count unbound factory parameters give, as one whose tile shapes they
/// give (the CPU target binds the count at run time).
bool skipUnbuildable(tile::FuncOp func, llvm::StringRef kernelFilter, bool &ok,
                     bool needsKernel = false);

/// The source texts \p func imports (`T.import_source`, `T.Kernel(prelude=
/// ...)`; tile::getImportedSources) as printed after a target's headers:
/// a comment line, then each text ending in a newline, then a blank line;
/// empty when there are none. For the CPU target (\p forCpu) the CUDA
/// function qualifiers the texts may use (`__device__`, `__host__`,
/// `__forceinline__`, TileLang's `TL_DEVICE`) are defined first, so a
/// device helper builds as an ordinary inline function.
std::string importedSourceText(tile::FuncOp func, bool forCpu);

/// What every target's artifact build does first: walks the defined
/// functions of \p module in order, each with its manifest from
/// describeKernel, passing over those that \p kernelFilter (when not empty)
/// names neither by function nor by kernel name. A function that cannot be
/// described has its diagnostic and counts as failed. \p build returns
/// advance (built), skip (this one failed; go on) or interrupt (stop now).
/// Fails when some function failed or the walk was interrupted.
/// \p needsKernel as for skipUnbuildable.
mlir::LogicalResult forEachKernelToBuild(
    mlir::Operation *module, llvm::StringRef kernelFilter,
    llvm::function_ref<mlir::WalkResult(tile::FuncOp, artifact::Manifest &)>
        build,
    bool needsKernel = false);

/// Writes \p bundle into \p outDir (artifact::writeArtifact); a failure is a
/// diagnostic on \p func naming \p targetName ("CPU", "CUDA"). With \p log,
/// prints `wrote DIR/BINARY` and ` (cached)` on a cache hit.
mlir::LogicalResult writeKernelArtifact(tile::FuncOp func,
                                        artifact::ArtifactBundle &bundle,
                                        llvm::StringRef outDir,
                                        const artifact::HostCompileOptions &compile,
                                        llvm::StringRef targetName,
                                        llvm::raw_ostream *log);

/// Writes the artifacts of one build's kernel instances as
/// writeKernelArtifact does, running the compilations of several instances
/// at the same time (up to the hardware threads, or $TLC_COMPILE_JOBS when
/// set): a script that calls its
/// kernel at a dozen sizes builds in about the time of its slowest
/// compilation on a host with that many threads, not in their sum. The
/// files written are those of one instance at a time; diagnostics and
/// `wrote` lines come in the order the instances were added. An in-process
/// compiler (NVRTC) compiles one instance at a time.
class KernelArtifactWriter {
public:
  KernelArtifactWriter(llvm::StringRef outDir, llvm::StringRef targetName,
                       llvm::raw_ostream *log)
      : outDir(outDir.str()), targetName(targetName.str()), log(log) {}

  /// Queues \p bundle, the artifact of \p func, compiled with \p compile.
  void add(tile::FuncOp func, artifact::ArtifactBundle bundle,
           const artifact::HostCompileOptions &compile);

  /// Writes and compiles every queued instance; fails when one failed (each
  /// failure a diagnostic on its function).
  mlir::LogicalResult finish();

private:
  struct Pending;
  std::string outDir, targetName;
  llvm::raw_ostream *log;
  std::vector<std::shared_ptr<Pending>> pending;
};

/// Marks \p diag (KernelArtifactWriter's error) as a tool failure: the
/// device or host compiler, a tool or the disk failed, the program was not
/// refused. The mark is diagnostic metadata, not part of the message.
void markToolFailure(mlir::Diagnostic &diag);

/// Whether \p diag was marked by markToolFailure.
bool isToolFailure(mlir::Diagnostic &diag);

} // namespace target
} // namespace tlc

#endif // TLC_TARGET_CPP_KERNELINTERFACE_H
