//===- SharedAccesses.h - Shared-memory layouts and accesses of CUDA code -*-
// C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the CUDA back end does with shared memory, as facts over Tile IR:
// which shared tiles it XOR-swizzles or stores in descriptor panels (the
// printer asks planSharedStorage() and so do hints, pictures and the
// bank-conflict analysis), the layout each shared buffer is stored in,
// and the warp-wide accesses the generated code makes to them, with their
// bank-conflict degree (layout/BankConflicts.h).
//
// Accesses modelled: T.copy between global (or shared) memory and shared
// memory (16-byte vectors or elements, chunk q = round * threads + tid;
// cp.async inside T.Pipelined), T.copy between a fragment and shared
// memory (each thread's registers in vector steps, the fragment's layout
// attribute), and the ldmatrix reads of T.gemm's shared operands on mma.sync
// targets (each 8x8 matrix is eight 16-byte row reads, rows 8-aligned).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DIALECT_TILE_TRANSFORMS_SHAREDACCESSES_H
#define TLC_DIALECT_TILE_TRANSFORMS_SHAREDACCESSES_H

#include "tlc/Dialect/Tile/IR/TileOps.h"
#include "tlc/Layout/Layout.h"
#include "tlc/Layout/MfmaSharedLayouts.h"

#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <string>
#include <vector>

namespace tlc {
namespace tile {

/// The shared tiles of \p kernel that the CUDA target stores XOR-swizzled
/// (`tlc::cuda::swizzledIndex`), with their 16-byte chunks per row: shared
/// gemm operands of 16- and 8-bit elements whose rows are two chunks or
/// more, and 2-d tiles of such elements that only copies use and that a
/// fragment is copied into.
llvm::DenseMap<mlir::Value, int64_t> planSwizzledTiles(KernelOp kernel);

/// The LDS tiles of \p kernel that the HIP target stores in a swizzle of
/// their own (`tlc::hip::xorSwizzledIndex`): each shared operand tile of an
/// MFMA gemm, swizzled for the MFMA reads of the first gemm reading it
/// (layout::chooseMfmaSwizzle over HIPEmitterGemm's reads). They take
/// precedence over planSwizzledTiles() on HIP.
llvm::DenseMap<mlir::Value, layout::XorSwizzle>
planLdsSwizzles(KernelOp kernel);

/// How the CUDA and HIP printers store one shared allocation: the one
/// answer that the printer's addressing (CUDABufferAccess.cpp), the buffer
/// hints, the layout pictures and the bank-conflict analysis all read.
struct SharedStorage {
  enum class Kind : uint8_t {
    /// Row-major: `[i * cols + j]`.
    Linear,
    /// `tlc::swizzledIndex<chunks>`: row-major with the 16-byte chunk of
    /// each row XOR-ed by row bits (planSwizzledTiles()).
    RowSwizzle,
    /// `tlc::cuda::panelSwizzledIndex`: panels of `chunks` 16-byte chunks
    /// a row, each a row-swizzled tile, as wgmma / tcgen05 descriptors
    /// read them (tile-plan-wgmma, tile-plan-tcgen05).
    Panels,
    /// `tlc::hip::xorSwizzledIndex`: the LDS swizzle of an MFMA operand
    /// (planLdsSwizzles()).
    LdsSwizzle,
  };
  Kind kind = Kind::Linear;
  /// RowSwizzle: 16-byte chunks per row; Panels: per panel row (2, 4, 8
  /// for the 32-, 64- and 128-byte swizzles).
  int64_t chunks = 0;
  /// LdsSwizzle: the swizzle.
  layout::XorSwizzle lds;

  /// The index function of the generated code with its template
  /// arguments for a tile of type \p type, without namespace and
  /// arguments (`swizzledIndex<16>`, `panelSwizzledIndex<8, 8, 32, 128>`);
  /// empty for Linear.
  std::string indexTemplate(BufferType type) const;
  /// The namespace of indexTemplate() in code of \p hip
  /// (`tlc::cuda::`, `tlc::hip::`; panels are CUDA's only).
  std::string indexNamespace(bool hip) const;
};

/// The printer whose storage planSharedStorage() describes.
struct SharedStorageTarget {
  /// HIP (LDS swizzles) rather than CUDA.
  bool hip = false;
  /// The CUDA architecture without prefix (`sm_90a`, `sm_100a`). On a
  /// kernel not lowered yet (no `tile.shared_bytes`), it decides which
  /// operands are stored in descriptor panels (planWgmmaPanels() on
  /// sm_90a, planTcgen05Panels() on sm_100a); a lowered kernel carries the
  /// passes' `tile.swizzle` and the architecture is not read.
  std::string arch;
};

/// The printer of \p target (`cuda:sm_90a`, `sm_80`, `hip:gfx942`; empty
/// is the default sm_80), or std::nullopt for a target without one
/// (`cpu`).
std::optional<SharedStorageTarget>
parseSharedStorageTarget(llvm::StringRef target);

/// How the CUDA / HIP printer of \p target stores each shared allocation
/// of \p kernel; allocations not in the map are stored row-major. Panels
/// come first, then (HIP) the LDS swizzle (whose single-phase form is
/// row-major), then the row swizzle. Fragments are read from `layout`
/// attributes (HIP's swizzle needs the accumulator's MFMA layout): run
/// layout inference first.
llvm::DenseMap<mlir::Value, SharedStorage>
planSharedStorage(KernelOp kernel, const SharedStorageTarget &target);

/// The element-offset layout of storage \p s (null: row-major) of shared
/// allocation \p root (static shape, positive extents).
layout::Layout sharedStorageLayout(mlir::Value root, const SharedStorage *s);

/// The label of storage \p s (null: row-major) of \p root for hints and
/// pictures: the canonical swizzle's name where the layout is one
/// (`swizzle 128B`: a 128-byte row swizzle, or panels of 128-byte rows as
/// descriptors read them), else what it is (`swizzle 128B, 256B rows`,
/// `xor swizzle (runs of 4, 8 phases of 2 rows)`), `linear`.
std::string sharedStorageLabel(mlir::Value root, const SharedStorage *s);

/// The value of index \p v at loop coordinates \p coords of \p par (its
/// induction variables, in order), or std::nullopt when it depends on
/// anything else or is not an integer operation modelled here (add, sub,
/// mul, and, or, xor, min, max, shifts, division and remainder).
std::optional<int64_t> evaluateLoopIndex(mlir::Value v, ParallelOp par,
                                         llvm::ArrayRef<int64_t> coords);

/// One shared-memory access of the generated code with a bank conflict.
struct BankConflict {
  /// The tile op (T.copy, T.gemm, T.reduce_*), or the element load or store
  /// inside a T.Parallel.
  mlir::Operation *op = nullptr;
  /// The shared allocation accessed (for an area of the printer's own, the
  /// fragment stored through it, or null).
  mlir::Value root;
  /// `the staging tile`, `the reduction scratch`: shared memory the CUDA
  /// printer lays out itself; empty for an allocation.
  std::string area;
  /// `ldmatrix`, `cp.async`, `16-byte st.shared`, `4-byte ld.shared`, ...
  std::string instruction;
  /// Wavefronts per phase in the worst warp access (>= 2).
  int64_t degree = 0;
  /// A padding of the buffer's rows (in elements) that makes every access
  /// of this op conflict-free, or 0 when none of up to 32 bytes does (for
  /// the staging tile, the whole padding of its rows, up to 64 bytes).
  int64_t padElems = 0;
  /// True when the row swizzle would make them conflict-free.
  bool swizzleFixes = false;
};

/// The accesses of \p kernel (threads static) that conflict, in program
/// order, one per (op, buffer, instruction), each against the layout
/// planSharedStorage() says its buffer is stored in (\p arch, e.g.
/// `sm_100a`, decides the panels of a kernel not lowered). \p mmaSync: the
/// target issues T.gemm as mma.sync with ldmatrix operand loads (sm_80 ..
/// sm_89, and sm_90 without the `a` features). \p sm90a: the target is
/// sm_90a, whose gemms take wgmma when tile-plan-wgmma chooses it
/// (selectWgmmaGemms): their shared operands are then stored in the
/// descriptors' panel swizzle (layout::makeGemmABLayoutHopper) and read as
/// 8-row x 16-byte core matrices, one phase each; the other gemms use
/// ldmatrix. Fragments are read from the `layout` attributes of their
/// allocations (run layout inference first).
std::vector<BankConflict> findBankConflicts(KernelOp kernel, bool mmaSync,
                                            bool sm90a = false,
                                            llvm::StringRef arch = "");

/// The LDS accesses of \p kernel in the HIP target's code (the same printer
/// as CUDA's: the same copies, T.Parallel partition, staging and swizzle
/// plan; T.copy into LDS stages is a plain vector store, no cp.async; T.gemm
/// reads its LDS operands element by element for MFMA, HIPEmitterGemm.cpp)
/// that conflict on CDNA's LDS banks, whose phases
/// layout::bankConflictDegree describes for WarpAccess::lds. A 64-lane
/// wavefront's access is analysed as its two halves, in which every phase
/// lies. Instructions are named as LDS instructions (`ds_read_u16`).
std::vector<BankConflict> findLdsBankConflicts(KernelOp kernel);

} // namespace tile
} // namespace tlc

#endif // TLC_DIALECT_TILE_TRANSFORMS_SHAREDACCESSES_H
