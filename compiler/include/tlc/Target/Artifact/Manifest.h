//===- Manifest.h - Kernel artifact manifests (NAME.json) -------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The manifest `tlc-build -o DIR` writes next to each kernel instance's
// generated source and binary, and `tlc-run` reads: the instance's
// parameters, symbols, launches, target and source map. Every target (cpu,
// cuda, hip) writes the same format; runtime/README.md documents it.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_TARGET_ARTIFACT_MANIFEST_H
#define TLC_TARGET_ARTIFACT_MANIFEST_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tlc::artifact {

/// Newest version of the manifest format this build reads and writes.
/// Version 2 adds workspaces, version 3 TMA tensor maps, version 4 pointer
/// parameters (`pointer`) and pointer tables (`pointee`), version 5 dynamic
/// shared memory given as an expression of the symbols, version 6 tensor
/// parameters with strides (`strides`) and symbols bound from a stride
/// (kind `stride`); a manifest is written with the oldest version that has
/// what it uses, so tools that only know older versions still read it.
constexpr int64_t kManifestVersion = 6;
/// Oldest version this build reads.
constexpr int64_t kMinManifestVersion = 1;

/// One extent: a static integer or a symbolic expression (ShapeExpr text).
struct Extent {
  /// True for a static integer.
  bool isStatic = true;
  /// The value when static.
  int64_t value = 0;
  /// The expression text when symbolic (`M`, `ceildiv(N, 128)`).
  std::string expr;

  /// A static extent.
  static Extent of(int64_t v) { return Extent{true, v, {}}; }
  /// A symbolic extent.
  static Extent symbolic(std::string e) { return Extent{false, 0, std::move(e)}; }
  /// The extent as manifest text (`128` or the expression).
  std::string str() const;
};

/// How a kernel uses a parameter.
enum class Role { In, Out, InOut };

/// The manifest spelling of a role: `in`, `out`, `inout`.
llvm::StringRef getRoleName(Role role);

/// What each element of a pointer table points at: a tensor of its own per
/// element, all of this dtype and shape.
struct Pointee {
  /// TileLang dtype name of the pointed-at elements.
  std::string dtype;
  /// Extents of each pointed-at tensor (row-major, dense).
  std::vector<Extent> shape;
  /// Whether the kernel reads them, writes them, or both.
  Role role = Role::In;
};

/// One kernel parameter, in call order.
struct Param {
  /// The Python name (`A`, `Output`).
  std::string name;
  /// True for a tensor, false for a scalar.
  bool isTensor = true;
  /// TileLang dtype name (`float16`, `bfloat16`, `float8_e4m3fn`, `int32`).
  std::string dtype;
  /// Extents of a tensor; empty for a scalar.
  std::vector<Extent> shape;
  /// Element strides of a tensor, one per dimension (static, or an
  /// expression of the symbols: `T.StridedTensor`), when they are not the
  /// dense row-major ones; empty for a dense row-major tensor.
  std::vector<Extent> strides;
  /// Whether the kernel reads it, writes it, or both.
  Role role = Role::In;
  /// A tensor passed as a `T.ptr` address: the kernel takes a 64-bit
  /// integer that holds the tensor's address (same bytes as a tensor
  /// argument; callers may pass an address instead of a tensor).
  bool pointer = false;
  /// For an int64 tensor of addresses (a pointer table): what each of its
  /// elements points at. The runtime allocates one tensor per element and
  /// fills the table with their addresses.
  std::optional<Pointee> pointee;
  /// The TileLang dtype of the coarsest arithmetic the kernel computes a
  /// written float tensor with, when it is coarser than `dtype`: `tfloat32`
  /// for a float32 output of a kernel whose gemms take float32 operands
  /// (the tensor cores, and the CPU target modelling them, keep 10 bits of
  /// their mantissas). Empty: the dtype's own. Verifiers compare such an
  /// output with this dtype's tolerances; nothing else depends on it.
  std::string precision;
};

/// A symbol the instance leaves open, bound at run time (`-D M=100`).
struct Symbol {
  /// The name used in extents.
  std::string name;
  /// Where its value comes from: `dynamic`, `const`, `meta`, `param` (an
  /// integer parameter's value) or `stride` (a `T.dynamic` used only as a
  /// tensor parameter's stride: that stride of the argument).
  std::string kind;
};

/// A TMA tensor map a launch's kernel takes by value after the symbols (in
/// order): the loader encodes it with cuTensorMapEncodeTiled over the
/// tensor parameter's device address.
struct TensorMap {
  /// Name of the tensor parameter it describes.
  std::string param;
  /// TileLang dtype name of the elements.
  std::string dtype;
  /// Extents, innermost first (2 to 5).
  std::vector<int64_t> dims;
  /// Byte strides of dimensions 1.. (dims.size() - 1 entries).
  std::vector<int64_t> strides;
  /// Box extents, innermost first.
  std::vector<int64_t> box;
  /// Shared-memory swizzle bytes: 0 (none), 32, 64 or 128.
  int64_t swizzle = 0;
  /// `none` (the only interleave tlc generates).
  std::string interleave = "none";
  /// L2 promotion: `none`, `64B`, `128B` or `256B`.
  std::string l2Promotion = "128B";
  /// Out-of-bounds elements: `zero` (CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE).
  std::string oobFill = "zero";
};

/// One `T.Kernel` launch of the instance, in program order.
struct Launch {
  /// Grid extents (x, y, z), 1 to 3 entries.
  std::vector<Extent> grid;
  /// Threads per block (x, y, z), 1 to 3 entries.
  std::vector<Extent> block;
  /// Dynamic shared memory bytes per block: static, or (shared buffers of
  /// symbolic shape) an expression of the symbols evaluated at launch.
  Extent dynamicSharedMemory;
  /// `file:line:col` of the `T.Kernel` statement.
  std::string location;
  /// The GPU kernel symbol of this launch (empty: the manifest's `entry`).
  std::string entry;
  /// Names of the manifest's workspaces this launch's kernel takes, in
  /// argument order: after the parameters, before the symbols.
  std::vector<std::string> workspaces;
  /// TMA tensor maps, after the symbols.
  std::vector<TensorMap> tensorMaps;
  /// The kernel waits at grid-wide barriers (T.sync_grid): launched
  /// cooperatively (cuLaunchCooperativeKernel, hipModuleLaunchCooperative-
  /// Kernel), and only when every block fits on the device at once.
  bool cooperative = false;
  /// Blocks per thread-block cluster along x, y, z (the kernel's
  /// `__cluster_dims__`, so any launch of it launches clusters); empty: no
  /// clusters. Launchers check that the grid is a multiple of it; the sim
  /// device keeps each cluster's blocks resident together.
  std::vector<int64_t> cluster;
};

/// A global scratch buffer of the instance (`T.alloc_global` in the function
/// body): allocated by the runtime before the first launch, passed to the
/// launches that list it, freed after the last.
struct Workspace {
  /// The Python name (`glse`).
  std::string name;
  /// TileLang dtype name of the elements.
  std::string dtype;
  /// Extents (row-major, dense).
  std::vector<Extent> shape;
  /// Size in bytes (static, or an expression of the symbols).
  Extent bytes;
};

/// One source map entry: generated line `generatedLine` (1-based) comes from
/// the DSL range file[fileIndex]:line:col-endLine:endCol (1-based).
struct SourceMapEntry {
  unsigned generatedLine = 0;
  unsigned fileIndex = 0;
  unsigned line = 0, column = 0, endLine = 0, endColumn = 0;
};

/// The whole manifest of one kernel instance.
struct Manifest {
  /// Format version (kManifestVersion).
  int64_t version = kManifestVersion;
  /// Artifact name (file stem of NAME.json, NAME.cpp, NAME.so).
  std::string name;
  /// The kernel function's Python name.
  std::string kernel;
  /// `cpu`, `cuda:sm_90a`, `hip:gfx942` ...
  std::string target;
  /// The DSL file the instance comes from.
  std::string sourceFile;
  /// File name (in the artifact directory) of the generated source.
  std::string generatedSource;
  /// File name of the binary (`.so`, `.cubin`, `.hsaco`).
  std::string binary;
  /// The exported entry point / kernel symbol.
  std::string entry;
  /// SHA-256 (hex) of the generated source.
  std::string sourceHash;
  /// Open symbols, in the order the entry point takes their values.
  std::vector<Symbol> symbols;
  /// Parameters in call order.
  std::vector<Param> params;
  /// Kernel launches in program order.
  std::vector<Launch> launches;
  /// Workspaces in allocation order.
  std::vector<Workspace> workspaces;
  /// Files the source map refers to.
  std::vector<std::string> sourceMapFiles;
  /// Generated line <-> DSL location, sorted by generated line.
  std::vector<SourceMapEntry> sourceMap;
  /// A CPU artifact whose results depend on a GPU target's fragment
  /// layouts: the target whose layouts it follows (`cuda:sm_80` unless
  /// tlc-build --layouts-of said otherwise). Empty otherwise.
  std::string layoutsOf;
};

/// The family of fragment layouts of a GPU target name (`cuda:sm_90a`,
/// `sm_80`, `hip:gfx942`): "mma" (sm_80 .. sm_89, sm_120), "wgmma"
/// (sm_90, sm_90a), "mma+tmem" (sm_100, sm_100a), "mfma" (gfx90a, gfx942,
/// gfx950); empty for anything else. Targets of one family give every
/// fragment the same layout (tile::parseLayoutTarget's table).
std::string layoutFamilyOf(llvm::StringRef target);

/// The manifest as JSON.
llvm::json::Value toJSON(const Manifest &manifest);

/// Parses a manifest from JSON; the error says which field is wrong.
llvm::Expected<Manifest> manifestFromJSON(const llvm::json::Value &value);

/// Writes \p manifest to \p path (pretty-printed, atomically replaced).
llvm::Error writeManifest(const Manifest &manifest, llvm::StringRef path);

/// Reads and parses the manifest at \p path. Errors name the path and say
/// whether it is missing, not JSON, or not a valid manifest.
llvm::Expected<Manifest> readManifest(llvm::StringRef path);

/// The bytes of \p count elements of \p dtype (sub-byte types rounded up);
/// nullopt for an unknown dtype.
std::optional<int64_t> getDTypeBytes(llvm::StringRef dtype, int64_t count);

/// The byte size of a dense buffer of \p dtype and \p shape: static when
/// every extent is, else a ShapeExpr of the symbolic extents. Fails for an
/// unknown dtype.
llvm::Expected<Extent> getBufferBytes(llvm::StringRef dtype,
                                      const std::vector<Extent> &shape);

/// Lowercase hex SHA-256 of \p data.
std::string sha256Hex(llvm::StringRef data);

} // namespace tlc::artifact

#endif // TLC_TARGET_ARTIFACT_MANIFEST_H
