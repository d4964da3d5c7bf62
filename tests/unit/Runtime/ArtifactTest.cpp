//===- ArtifactTest.cpp - Manifests and symbolic extents ------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Target/Artifact/Manifest.h"
#include "tlc/Target/Artifact/ShapeExpr.h"
#include "tlc/Target/Artifact/SharedMemoryLimits.h"
#include "tlc/runtime/LaunchPlan.h"

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
  // `layouts_of` is written only when set, and read back.
  CHECK(!toJSON(*again).getAsObject()->get("layouts_of"));
  again->layoutsOf = "cuda:sm_90a";
  auto cpu = manifestFromJSON(toJSON(*again));
  REQUIRE(static_cast<bool>(cpu));
  CHECK(cpu->layoutsOf == "cuda:sm_90a");
}

TEST_CASE("layoutFamilyOf: targets with the same fragment layouts") {
  // tile::parseLayoutTarget's table: sm_80 .. sm_89 and sm_120 mma.sync,
  // sm_90 / sm_90a wgmma, sm_100 / sm_100a mma.sync with tensor memory,
  // gfx90a / gfx942 / gfx950 MFMA.
  CHECK(layoutFamilyOf("cuda:sm_80") == layoutFamilyOf("sm_89"));
  CHECK(layoutFamilyOf("cuda:sm_80") == layoutFamilyOf("cuda:sm_120"));
  CHECK(layoutFamilyOf("cuda:sm_90a") == layoutFamilyOf("sm_90"));
  CHECK(layoutFamilyOf("hip:gfx942") == layoutFamilyOf("gfx90a"));
  CHECK(layoutFamilyOf("cuda:sm_80") != layoutFamilyOf("cuda:sm_90a"));
  CHECK(layoutFamilyOf("cuda:sm_80") != layoutFamilyOf("cuda:sm_100a"));
  CHECK(layoutFamilyOf("cuda:sm_90a") != layoutFamilyOf("hip:gfx942"));
  CHECK(layoutFamilyOf("cpu").empty());
  CHECK(layoutFamilyOf("cuda:sm_70").empty());
}

TEST_CASE("Manifest: workspaces (version 2) and version 1 compatibility") {
  // A version 1 manifest (no workspaces) reads as before.
  auto v1 = manifestFromJSON(*llvm::json::parse(validManifest));
  REQUIRE(static_cast<bool>(v1));
  CHECK(v1->workspaces.empty());
  CHECK(v1->launches[0].workspaces.empty());
  // Without workspaces the writer keeps version 1.
  CHECK(toJSON(*v1).getAsObject()->getInteger("version") == 1);
  CHECK(!toJSON(*v1).getAsObject()->get("workspaces"));

  std::string v2 = validManifest;
  v2.replace(v2.find("\"version\": 1"), 12, "\"version\": 2");
  v2.replace(v2.find("\"block\": [128]}"), 15,
             R"("block": [128], "workspaces": ["glse", "part"]},
                {"grid": [4], "block": [128], "workspaces": ["glse"]})");
  v2.insert(v2.size() - 1, R"(, "workspaces": [
      {"name": "glse", "dtype": "float32", "shape": ["M", 3], "bytes": "(M) * 3 * 4"},
      {"name": "part", "dtype": "float16", "shape": [2, 5], "bytes": 20}])");
  checkManifest(v2, "ok");
  auto m = manifestFromJSON(*llvm::json::parse(v2));
  REQUIRE(static_cast<bool>(m));
  REQUIRE(m->workspaces.size() == 2);
  CHECK(m->workspaces[0].name == "glse");
  CHECK(m->workspaces[0].dtype == "float32");
  CHECK(m->workspaces[0].shape[0].expr == "M");
  CHECK(m->workspaces[0].bytes.expr == "(M) * 3 * 4");
  CHECK(m->workspaces[1].bytes.value == 20);
  REQUIRE(m->launches.size() == 2);
  CHECK(m->launches[0].workspaces == std::vector<std::string>{"glse", "part"});
  CHECK(m->launches[1].workspaces == std::vector<std::string>{"glse"});
  auto again = manifestFromJSON(toJSON(*m));
  REQUIRE(static_cast<bool>(again));
  CHECK(toJSON(*m).getAsObject()->getInteger("version") == 2);
  CHECK(again->workspaces[1].shape[1].value == 5);
  CHECK(again->launches[1].workspaces == m->launches[1].workspaces);

  std::string undeclared = v2;
  undeclared.replace(undeclared.find("[\"glse\"]}"), 9, "[\"lse\"]}");
  checkManifest(undeclared, "a launch takes workspace 'lse', which "
                            "'workspaces' does not declare");
  std::string noBytes = v2;
  noBytes.replace(noBytes.find(", \"bytes\": 20"), 13, "");
  checkManifest(noBytes, "workspace 'part' has no integer or string 'bytes'");
  checkManifest(R"({"format": "tlc-kernel", "version": 7})",
                "unsupported manifest version 7 (this tlc reads versions 1 "
                "to 6)");
}

TEST_CASE("Manifest: strided tensor parameters (version 6)") {
  std::string v6 = validManifest;
  v6.replace(v6.find("\"version\": 1"), 12, "\"version\": 6");
  v6.replace(v6.find("\"role\": \"in\"}"), 13,
             R"("role": "in", "strides": ["pitch", 1]})");
  v6.replace(v6.find("\"dynamic\"}"), 10,
             R"("dynamic"}, {"name": "pitch", "kind": "stride"})");
  checkManifest(v6, "ok");
  auto m = manifestFromJSON(*llvm::json::parse(v6));
  REQUIRE(static_cast<bool>(m));
  REQUIRE(m->params[0].strides.size() == 2);
  CHECK(m->params[0].strides[0].expr == "pitch");
  CHECK(m->params[0].strides[1].value == 1);
  CHECK(m->symbols[1].kind == "stride");
  // Written back with version 6, and the same strides.
  CHECK(toJSON(*m).getAsObject()->getInteger("version") == 6);
  auto again = manifestFromJSON(toJSON(*m));
  REQUIRE(static_cast<bool>(again));
  CHECK(again->params[0].strides[0].expr == "pitch");
  // Without strides the writer keeps the older version.
  m->params[0].strides.clear();
  CHECK(toJSON(*m).getAsObject()->getInteger("version") == 1);

  std::string wrongCount = v6;
  wrongCount.replace(wrongCount.find("[\"pitch\", 1]"), 12, "[1]");
  checkManifest(wrongCount, "parameter 'A' has 'strides' but not one per "
                            "dimension of a tensor");
}

TEST_CASE("Manifest: pointer parameters and pointer tables (version 4)") {
  std::string v4 = validManifest;
  v4.replace(v4.find("\"version\": 1"), 12, "\"version\": 4");
  v4.replace(v4.find("\"role\": \"in\"}"), 13,
             R"("role": "in", "pointer": true},
             {"name": "C_ptrs", "kind": "tensor", "dtype": "int64",
              "shape": [3], "role": "in", "pointee": {"dtype": "float32",
              "shape": ["M", 8], "role": "out"}})");
  checkManifest(v4, "ok");
  auto m = manifestFromJSON(*llvm::json::parse(v4));
  REQUIRE(static_cast<bool>(m));
  REQUIRE(m->params.size() == 2);
  CHECK(m->params[0].pointer);
  CHECK(!m->params[0].pointee);
  CHECK(!m->params[1].pointer);
  REQUIRE(m->params[1].pointee);
  CHECK(m->params[1].pointee->dtype == "float32");
  CHECK(m->params[1].pointee->shape[0].expr == "M");
  CHECK(m->params[1].pointee->shape[1].value == 8);
  CHECK(m->params[1].pointee->role == Role::Out);
  // Written back with version 4, and the same fields.
  CHECK(toJSON(*m).getAsObject()->getInteger("version") == 4);
  auto again = manifestFromJSON(toJSON(*m));
  REQUIRE(static_cast<bool>(again));
  CHECK(again->params[0].pointer);
  REQUIRE(again->params[1].pointee);
  CHECK(again->params[1].pointee->role == Role::Out);
  // Without pointers the writer keeps the older version.
  m->params[0].pointer = false;
  m->params[1].pointee.reset();
  CHECK(toJSON(*m).getAsObject()->getInteger("version") == 1);

  std::string notTable = v4;
  notTable.replace(notTable.find("\"int64\""), 7, "\"int32\"");
  checkManifest(notTable, "parameter 'C_ptrs' has a 'pointee' but is not a "
                          "one-dimensional int64 tensor");
  std::string badRole = v4;
  badRole.replace(badRole.find("\"out\""), 5, "\"up\"");
  checkManifest(badRole, "the pointee of parameter 'C_ptrs' has role 'up'");
  std::string badPointer = v4;
  badPointer.replace(badPointer.find("true"), 4, "1");
  checkManifest(badPointer, "parameter 'A': 'pointer' is not a boolean");
}

TEST_CASE("Buffer byte sizes: dtype widths, symbolic shapes") {
  auto bytes = [](const std::string &dtype, std::vector<Extent> shape) {
    auto e = getBufferBytes(dtype, shape);
    if (!e)
      return "error: " + llvm::toString(e.takeError());
    return e->str();
  };
  CHECK(bytes("float32", {Extent::of(4), Extent::of(3)}) == "48");
  CHECK(bytes("float16", {Extent::of(5)}) == "10");
  CHECK(bytes("bfloat16", {Extent::of(5)}) == "10");
  CHECK(bytes("float8_e4m3fn", {Extent::of(5)}) == "5");
  CHECK(bytes("int64", {Extent::of(2)}) == "16");
  CHECK(bytes("bool", {Extent::of(3)}) == "3");
  CHECK(bytes("uint4", {Extent::of(3)}) == "2");
  CHECK(bytes("float32", {}) == "4");
  CHECK(bytes("float32", {Extent::symbolic("M"), Extent::of(3)}) ==
        "3 * (M) * 4");
  CHECK(bytes("int4", {Extent::symbolic("ceildiv(N, 2)")}) ==
        "ceildiv(1 * (ceildiv(N, 2)) * 4, 8)");
  CHECK(bytes("complex", {Extent::of(1)}) == "error: unknown dtype 'complex'");
  // The symbolic forms evaluate to the static ones.
  auto e = ShapeExpr::parse("ceildiv(1 * (ceildiv(N, 2)) * 4, 8)");
  REQUIRE(static_cast<bool>(e));
  auto v = e->evaluate(
      [](llvm::StringRef) { return std::optional<int64_t>(7); });
  REQUIRE(static_cast<bool>(v));
  CHECK(*v == 2); // 4 int4 values
}

TEST_CASE("Manifest: dynamic shared memory of the symbols (version 5)") {
  std::string v5 = validManifest;
  v5.replace(v5.find("\"version\": 1"), 12, "\"version\": 5");
  v5.replace(v5.find("\"block\": [128]"), 14,
             R"j("block": [128], "dynamic_shared_memory": "4 * 16 * (M)")j");
  v5.replace(v5.find("\"cpu\""), 5, "\"cuda:sm_90a\"");
  checkManifest(v5, "ok");
  auto m = manifestFromJSON(*llvm::json::parse(v5));
  REQUIRE(static_cast<bool>(m));
  CHECK(!m->launches[0].dynamicSharedMemory.isStatic);
  CHECK(toJSON(*m).getAsObject()->getInteger("version") == 5);
  // Static shared memory keeps the oldest version.
  m->launches[0].dynamicSharedMemory = Extent::of(1024);
  CHECK(toJSON(*m).getAsObject()->getInteger("version") == 1);
  m = manifestFromJSON(*llvm::json::parse(v5));
  REQUIRE(static_cast<bool>(m));

  auto plan = tlc::runtime::planLaunch(*m, m->launches[0]);
  REQUIRE(static_cast<bool>(plan));
  int64_t limit = *getSharedMemoryPerBlock(m->target);
  CHECK(limit == 227 * 1024);
  auto at = [](int64_t v) {
    return [v](llvm::StringRef) -> std::optional<int64_t> { return v; };
  };
  auto size = tlc::runtime::sizeLaunch(*m, *plan, at(100), limit, "sm_90a");
  REQUIRE(static_cast<bool>(size));
  CHECK(size->dynamicSharedMemory == 6400);
  CHECK(size->grid[0] == 1);
  CHECK(!size->isEmpty());
  // M = 0: an empty grid (skipped by the launchers), no shared memory.
  size = tlc::runtime::sizeLaunch(*m, *plan, at(0), limit, "sm_90a");
  REQUIRE(static_cast<bool>(size));
  CHECK(size->isEmpty());
  // Past the limit: an error naming both sizes.
  auto big = tlc::runtime::sizeLaunch(*m, *plan, at(4000), limit, "sm_90a");
  REQUIRE(!big);
  CHECK(llvm::toString(big.takeError()) ==
        "kernel 'matmul': launch 'tlc_matmul': needs 256000 bytes of dynamic "
        "shared memory per block at these sizes; sm_90a allows at most "
        "232448");
  auto negative = tlc::runtime::sizeLaunch(*m, *plan, at(-200), limit, "x");
  REQUIRE(!negative);
  llvm::consumeError(negative.takeError());
  // Other targets' limits.
  CHECK(*getSharedMemoryPerBlock("hip:gfx942") == 64 * 1024);
  CHECK(*getSharedMemoryPerBlock("hip:gfx950") == 160 * 1024);
  CHECK(*getSharedMemoryPerBlock("cuda:sm_80,sm_90a") == 163 * 1024);
  CHECK(!getSharedMemoryPerBlock("cpu"));
}

TEST_CASE("Manifest: a cluster launch checks its grid at launch") {
  std::string text = validManifest;
  text.replace(text.find("\"block\": [128]"), 14,
               R"j("block": [128], "cluster": [2, 1, 1])j");
  text.replace(text.find("\"cpu\""), 5, "\"cuda:sm_90a\"");
  auto m = manifestFromJSON(*llvm::json::parse(text));
  REQUIRE(static_cast<bool>(m));
  REQUIRE(m->launches[0].cluster == std::vector<int64_t>{2, 1, 1});
  // Written back as read.
  auto again = manifestFromJSON(toJSON(*m));
  REQUIRE(static_cast<bool>(again));
  CHECK(again->launches[0].cluster == std::vector<int64_t>{2, 1, 1});
  auto plan = tlc::runtime::planLaunch(*m, m->launches[0]);
  REQUIRE(static_cast<bool>(plan));
  CHECK(plan->cluster[0] == 2);
  auto at = [](int64_t v) {
    return [v](llvm::StringRef) -> std::optional<int64_t> { return v; };
  };
  // ceildiv(M, 128) blocks along x: 4 for M = 500, 3 for M = 300.
  auto even = tlc::runtime::sizeLaunch(*m, *plan, at(500), {}, "sm_90a");
  REQUIRE(static_cast<bool>(even));
  CHECK(even->grid[0] == 4);
  auto odd = tlc::runtime::sizeLaunch(*m, *plan, at(300), {}, "sm_90a");
  REQUIRE(!odd);
  CHECK(llvm::toString(odd.takeError()) ==
        "kernel 'matmul': launch 'tlc_matmul': the grid's extent 3 along x "
        "is not a multiple of the cluster's extent 2 at these sizes (a "
        "cluster launch tiles the grid with clusters)");
  // A zero extent is no cluster.
  std::string bad = text;
  bad.replace(bad.find("[2, 1, 1]"), 9, "[2, 0, 1]");
  auto zero = manifestFromJSON(*llvm::json::parse(bad));
  REQUIRE(!zero);
  llvm::consumeError(zero.takeError());
}
