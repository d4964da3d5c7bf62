//===- FuzzManifest.cpp - Fuzz target: tlc-run's manifest reader ----------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Input: the bytes of a manifest (NAME.json of an artifact). Parses it as
// readManifest() does (llvm::json, then manifestFromJSON); a manifest that
// is accepted must survive toJSON -> manifestFromJSON unchanged.
//
//===----------------------------------------------------------------------===//

#include "tlc/Target/Artifact/Manifest.h"

#include "llvm/Support/JSON.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace tlc;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(text);
  if (!json) {
    llvm::consumeError(json.takeError());
    return 0;
  }
  llvm::Expected<artifact::Manifest> manifest =
      artifact::manifestFromJSON(*json);
  if (!manifest) {
    llvm::consumeError(manifest.takeError());
    return 0;
  }
  llvm::json::Value again = artifact::toJSON(*manifest);
  llvm::Expected<artifact::Manifest> back = artifact::manifestFromJSON(again);
  if (!back) {
    std::fprintf(stderr, "fuzz-manifest: toJSON output is refused: %s\n",
                 llvm::toString(back.takeError()).c_str());
    std::abort();
  }
  if (artifact::toJSON(*back) != again) {
    std::fprintf(stderr, "fuzz-manifest: round trip changed the manifest\n");
    std::abort();
  }
  return 0;
}
