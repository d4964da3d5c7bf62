//===- EmitterImpl.h - Internals of the CUDA emitter ------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// State shared by CUDAEmitter.cpp (functions, kernels, control flow, scalar
// arithmetic, buffer addressing) and CUDAEmitterTileOps.cpp (T.Parallel,
// T.copy, T.fill). One emitter per tile.func; not thread-safe.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LIB_TARGET_CUDA_EMITTERIMPL_H
#define TLC_LIB_TARGET_CUDA_EMITTERIMPL_H

#include "tlc/Dialect/Tile/IR/TileOps.h"
#include "tlc/Target/CUDA/CUDAEmitter.h"

#include "mlir/IR/Location.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <string>

namespace tlc::target::cuda_detail {

/// How a `local.fragment` buffer is spread over the threads: register r of
/// thread tid holds flat element ((r / vec) * threads + tid) * vec + r % vec.
struct FragmentInfo {
  llvm::SmallVector<int64_t> shape;
  int64_t numel = 0;
  /// Elements per chunk (a 16-byte vector when the fragment divides evenly).
  int64_t vec = 1;
  /// Registers per thread.
  int64_t regs = 0;
};

/// A buffer access resolved to its allocation or parameter.
struct RootAccess {
  /// The tile.alloc result or tile.func argument.
  mlir::Value root;
  /// One C++ index expression per dimension of the root.
  llvm::SmallVector<std::string> indices;
};

/// The shared-memory buffers a statement reads and writes.
struct SharedEffects {
  llvm::SmallPtrSet<void *, 4> reads, writes;
};

class Emitter {
public:
  Emitter(tile::FuncOp func, const CudaEmitOptions &options);

  /// Emits the translation unit (without the #include).
  mlir::LogicalResult emitFunction();
  /// The result.
  CudaKernel takeResult();

  // Output -----------------------------------------------------------------
  void line(const llvm::Twine &text);
  void open(const llvm::Twine &text);
  void close(llvm::StringRef suffix = "");
  /// Starts the code of \p op: current location, comment, #line.
  void beginOp(mlir::Operation *op, llvm::StringRef what);

  // Names and expressions ---------------------------------------------------
  std::string fresh(llvm::StringRef hint);
  /// Names \p v after its NameLoc (or \p hint).
  std::string define(mlir::Value v, llvm::StringRef hint);
  /// The expression of an emitted value (error text if unknown).
  std::string expr(mlir::Value v);
  /// C++ type of values of \p t in registers (f32 for 16/8-bit floats).
  mlir::FailureOr<std::string> valueType(mlir::Type t, mlir::Operation *at);
  /// C++ type of buffer elements of \p t.
  mlir::FailureOr<std::string> storageType(mlir::Type t, mlir::Operation *at);
  /// Storage value \p raw of element type \p t as a register value.
  std::string fromStorage(mlir::Type t, llvm::StringRef raw);
  /// Register value \p v as storage of element type \p t.
  std::string toStorage(mlir::Type t, llvm::StringRef v);
  /// Expression of extent \p d of \p t (static or a symbol).
  mlir::FailureOr<std::string> extent(tile::BufferType t, unsigned d,
                                      mlir::Operation *at);
  std::string foldResult(mlir::OpFoldResult r);

  // Buffers -----------------------------------------------------------------
  /// Resolves \p buffer (through tile.region views) at \p indices.
  mlir::FailureOr<RootAccess> resolve(mlir::Value buffer,
                                      llvm::ArrayRef<std::string> indices,
                                      mlir::Operation *at);
  /// Row-major linear index of \p access in its root.
  mlir::FailureOr<std::string> linearIndex(const RootAccess &access,
                                           mlir::Operation *at);
  /// The in-bounds condition of a global access ("" when not global).
  /// \p lastWidth: elements accessed from the innermost index on.
  mlir::FailureOr<std::string> boundsCondition(const RootAccess &access,
                                               mlir::Operation *at,
                                               int64_t lastWidth = 1);
  /// An lvalue for \p access (not for fragments).
  mlir::FailureOr<std::string> lvalue(const RootAccess &access,
                                      mlir::Operation *at);
  /// The scope of a root buffer.
  static tile::MemoryScope scopeOf(mlir::Value root);
  /// The root a (possibly region) buffer value views.
  static mlir::Value rootOf(mlir::Value buffer);
  /// The shared buffers \p op reads and writes (nested ops included).
  static SharedEffects sharedEffectsOf(mlir::Operation *op);

  // Ops ---------------------------------------------------------------------
  mlir::LogicalResult emitBlock(mlir::Block &block, bool allowBarriers);
  mlir::LogicalResult emitOp(mlir::Operation *op);
  mlir::LogicalResult emitKernel(tile::KernelOp op);
  mlir::LogicalResult emitAlloc(tile::AllocOp op);
  mlir::LogicalResult emitScalar(mlir::Operation *op);
  mlir::LogicalResult emitLoad(tile::LoadOp op);
  mlir::LogicalResult emitStore(tile::StoreOp op);
  // CUDAEmitterTileOps.cpp
  mlir::LogicalResult emitParallel(tile::ParallelOp op);
  mlir::LogicalResult emitCopy(tile::CopyOp op);
  mlir::LogicalResult emitFill(mlir::Operation *op, mlir::Value dst,
                               const std::string &value);

  /// Threads per block of the kernel being emitted.
  int64_t numThreads = 0;
  /// Fragments of the kernel being emitted.
  llvm::DenseMap<mlir::Value, FragmentInfo> fragments;
  /// Inside a T.Parallel: the register variable and induction variables.
  std::string parallelReg;
  llvm::SmallVector<mlir::Value> parallelVars;
  /// Names of values.
  llvm::DenseMap<mlir::Value, std::string> names;

private:
  tile::FuncOp func;
  CudaEmitOptions options;
  std::string out;
  unsigned lineCount = 0;
  unsigned indent = 0;
  mlir::Location currentLoc;
  llvm::StringSet<> usedNames;
  llvm::StringMap<std::string> symbolNames;
  llvm::StringMap<unsigned> fileIndex;
  llvm::DenseMap<mlir::Value, int64_t> sharedOffsets;
  int64_t sharedBytes = 0;
  CudaKernel result;
};

/// The file location inside \p loc (through names, call sites, fusions).
mlir::FileLineColRange getFileLoc(mlir::Location loc);
/// Bytes of one element of \p t (0 if unknown).
int64_t byteWidth(mlir::Type t);

} // namespace tlc::target::cuda_detail

#endif // TLC_LIB_TARGET_CUDA_EMITTERIMPL_H
