//===- Artifact.h - Writing kernel artifact directories ---------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What `tlc-build -o DIR` writes per kernel instance, independent of the
// target: the generated source, support headers, the binary compiled by the
// host toolchain (through a content-hash cache) and the manifest NAME.json.
// The targets (Target/Cpp for the CPU) fill an ArtifactBundle; this library
// writes it.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_TARGET_ARTIFACT_ARTIFACT_H
#define TLC_TARGET_ARTIFACT_ARTIFACT_H

#include "tlc/Target/Artifact/Manifest.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace tlc::artifact {

/// Everything a target produced for one kernel instance.
struct ArtifactBundle {
  /// The manifest; `generatedSource`, `binary` and `sourceHash` are filled
  /// in by writeArtifact.
  Manifest manifest;
  /// The generated source text.
  std::string source;
  /// Extension of the generated source (`.cpp`, `.cu`).
  std::string sourceExtension = ".cpp";
  /// Extension of the compiled binary (`.so`, `.cubin`).
  std::string binaryExtension = ".so";
  /// Extra files (name, contents) the source needs next to it (headers);
  /// a name may contain `/` (subdirectories are created).
  std::vector<std::pair<std::string, std::string>> extraFiles;
};

/// How the host compiler builds a shared object.
struct HostCompileOptions {
  /// The compiler; empty: $TLC_HOST_CXX, else `c++` from PATH.
  std::string compiler;
  /// Flags before the source file.
  std::vector<std::string> flags = {"-std=c++17", "-O2", "-fPIC", "-shared",
                                    "-pthread", "-fwrapv"};
  /// Reuse and fill the content-hash cache (also off when $TLC_NO_CACHE is
  /// set).
  bool useCache = true;
  /// The cache directory; empty: $TLC_CACHE_DIR, else
  /// $XDG_CACHE_HOME/tlc, else ~/.cache/tlc.
  std::string cacheDir;
  /// Names the compilation in errors (`host compilation failed ...`,
  /// `nvcc compilation failed ...`).
  std::string label = "host";
  /// Flags the kernel itself asks for (`compile_flags=`, pass configs that
  /// are compiler options): after `flags` on the command line and in the
  /// cache key.
  std::vector<std::string> extraFlags;
  /// Flags that leave the binary as it is (the CPU target's `-include` of
  /// its precompiled device header): after `extraFlags` on the command
  /// line, not in the cache key.
  std::vector<std::string> unkeyedFlags;
  /// When set, compiles in process instead of running `compiler` (NVRTC):
  /// reads the source at the first path, writes the binary at the second,
  /// with `extraFlags` as the third. `compiler` then names it (with its
  /// version) in the cache key.
  std::function<llvm::Error(llvm::StringRef, llvm::StringRef,
                            llvm::ArrayRef<std::string>)>
      inProcess;
  /// The kernel instance the binary is built from, as the cache key names
  /// it: its Tile IR without locations (writeKernelArtifact fills it in).
  /// The key names the generated source too, without its comments (whose
  /// locations move with every edit) but with its string literals (whose
  /// locations the binary reports).
  std::string instance;
  /// Write the source, the extra files and the manifest only: no compiler
  /// runs, the manifest names no binary and the cache is not used
  /// (`tlc-build --cuda-compiler=none`).
  bool noBinary = false;
};

/// tlc's version as the cache key names it: the release and the identity
/// of the running executable (a hash of its bytes), so a changed tlc never
/// reuses binaries another tlc built.
llvm::StringRef getToolVersion();

/// Compiles the C++ file \p sourcePath (whose directory is on the include
/// path) into the shared object \p outputPath. The error holds the
/// compiler's diagnostics.
llvm::Error compileSharedObject(llvm::StringRef sourcePath,
                                llvm::StringRef outputPath,
                                const HostCompileOptions &options);

/// The host C++ compiler \p options name: the option, $TLC_HOST_CXX, or
/// `c++` from PATH; an error when it is not found.
llvm::Expected<std::string> findHostCompiler(const HostCompileOptions &options);

/// The build cache's root directory for \p options: the option,
/// $TLC_CACHE_DIR, $XDG_CACHE_HOME/tlc or ~/.cache/tlc; empty when the
/// cache is off (useCache false, TLC_NO_CACHE, TILELANG_DISABLE_CACHE) or
/// no directory is known. Kernels live in its `kernels/` folder.
std::string getCacheRoot(const HostCompileOptions &options);

/// The cache key of compiling \p bundle with \p options: SHA-256 of tlc's
/// version, the target, the instance's Tile IR (options.instance; the
/// generated source when that is empty or carries `#line` directives, which
/// put the DSL file's lines into the binary), the compiler, its flags and
/// the support headers. Location comments of the source are not part of
/// it: an edit elsewhere in the DSL file does not recompile a kernel.
std::string getCacheKey(const ArtifactBundle &bundle,
                        const HostCompileOptions &options);

/// Writes \p bundle into \p outDir (created if needed): NAME<ext>, the extra
/// files, NAME<binaryExtension> (from the cache when the key is there) and
/// NAME.json.
/// \p cacheHit, if given, tells whether the binary came from the cache.
llvm::Error writeArtifact(ArtifactBundle &bundle, llvm::StringRef outDir,
                          const HostCompileOptions &options,
                          bool *cacheHit = nullptr);

} // namespace tlc::artifact

#endif // TLC_TARGET_ARTIFACT_ARTIFACT_H
