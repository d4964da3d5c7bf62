//===- ArtifactTest.cpp - Manifests and symbolic extents ------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Target/Artifact/Manifest.h"
#include "tlc/Target/Artifact/ShapeExpr.h"

#include "llvm/Support/raw_ostream.h"

#include <doctest/doctest.h>

#include <map>
#include <string>

using namespace tlc::artifact;

namespace {

/// Evaluates \p text with M=100, N=70, block_M=32; \p want is the value or
/// the start of the error message.
void checkEval(const std::string &text, const std::string &want) {
  std::map<std::string, int64_t> env = {{"M", 100}, {"N", 70}, {"block_M", 32}};
  CAPTURE(text);
  std::string got;
  auto e = ShapeExpr::parse(text);
  if (!e) {
    got = llvm::toString(e.takeError());
  } else {
    auto v = e->evaluate([&](llvm::StringRef s) -> std::optional<int64_t> {
      auto it = env.find(s.str());
      if (it == env.end())
        return std::nullopt;
      return it->second;
    });
    got = v ? std::to_string(*v) : llvm::toString(v.takeError());
  }
  CHECK(got.substr(0, want.size()) == want);
}

/// Parses \p json as a manifest; \p want is "ok" or the start of the error.
void checkManifest(const std::string &json, const std::string &want) {
  CAPTURE(json);
  auto v = llvm::json::parse(json);
  REQUIRE(static_cast<bool>(v));
  auto m = manifestFromJSON(*v);
  std::string got = m ? "ok" : llvm::toString(m.takeError());
  CHECK(got.substr(0, want.size()) == want);
}

const char *validManifest = R"json({"format": "tlc-kernel", "version": 1,
  "name": "matmul", "kernel": "matmul", "target": "cpu", "binary": "matmul.so",
  "entry": "tlc_matmul", "symbols": [{"name": "M", "kind": "dynamic"}],
  "params": [{"name": "A", "kind": "tensor", "dtype": "float16",
              "shape": ["M", 64], "role": "in"}],
  "launches": [{"grid": ["ceildiv(M, 128)", 1], "block": [128]}]})json";

} // namespace

TEST_CASE("ShapeExpr: Python integer semantics") {
  checkEval("128", "128");
  checkEval("M", "100");
  checkEval("M // 32", "3");
  checkEval("-M // 32", "-4");
  checkEval("M % 32", "4");
  checkEval("(N + 127) // 128 * 128", "128");
  checkEval("ceildiv(M, block_M) * block_M - M", "28");
  checkEval("min(M, N) + max(M, 2 * N)", "210");
  checkEval("M - -N", "170");
  checkEval("K", "unbound symbol 'K'");
  checkEval("M // 0", "division by zero");
  checkEval("M +", "invalid extent 'M +' at column 4");
  checkEval("M $ 2", "invalid extent");
}

TEST_CASE("Manifest: JSON round trip and readable errors") {
  checkManifest(validManifest, "ok");
  checkManifest(R"({"format": "tlc-kernel", "version": 99})",
                "unsupported manifest version 99");
  checkManifest(R"([1, 2])", "manifest is not a JSON object");
  checkManifest(R"({"format": "other"})", "field 'format'");
  std::string badRole = validManifest;
  badRole.replace(badRole.find("\"in\""), 4, "\"sideways\"");
  checkManifest(badRole, "parameter 'A' has role 'sideways'");

  auto m = manifestFromJSON(*llvm::json::parse(validManifest));
  REQUIRE(static_cast<bool>(m));
  m->sourceMapFiles = {"gemm.py"};
  m->sourceMap = {{12, 0, 30, 5, 30, 40}};
  auto again = manifestFromJSON(toJSON(*m));
  REQUIRE(static_cast<bool>(again));
  CHECK(again->params[0].shape[0].expr == "M");
  CHECK(again->params[0].shape[1].value == 64);
  CHECK(again->launches[0].grid[0].expr == "ceildiv(M, 128)");
  CHECK(again->sourceMap[0].line == 30);
  CHECK(again->sourceMap[0].endColumn == 40);
  // A CPU launch has no kernel symbol of its own; a CUDA launch names its
  // `__global__` kernel, and the field survives the round trip.
  CHECK(again->launches[0].entry.empty());
  CHECK(!toJSON(*again).getAsObject()->getArray("launches")->front()
             .getAsObject()->get("entry"));
  again->launches[0].entry = "matmul_kernel";
  auto cuda = manifestFromJSON(toJSON(*again));
  REQUIRE(static_cast<bool>(cuda));
  CHECK(cuda->launches[0].entry == "matmul_kernel");
}
