//===- Manifest.cpp - Kernel artifact manifests (NAME.json) ---------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Target/Artifact/Manifest.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

using namespace tlc::artifact;
namespace json = llvm::json;

std::string Extent::str() const {
  return isStatic ? std::to_string(value) : expr;
}

llvm::StringRef tlc::artifact::getRoleName(Role role) {
  switch (role) {
  case Role::In:
    return "in";
  case Role::Out:
    return "out";
  case Role::InOut:
    return "inout";
  }
  llvm_unreachable("unknown role");
}

std::optional<int64_t> tlc::artifact::getDTypeBytes(llvm::StringRef dtype,
                                                   int64_t count) {
  // The bit width is the number after the type family (`float8_e4m3fn`,
  // `bfloat16`, `uint4`); bool is one byte.
  int64_t bits = 0;
  if (dtype == "bool") {
    bits = 8;
  } else {
    llvm::StringRef rest = dtype;
    if (!(rest.consume_front("bfloat") || rest.consume_front("tfloat") ||
          rest.consume_front("float") || rest.consume_front("uint") ||
          rest.consume_front("int")))
      return std::nullopt;
    llvm::StringRef digits = rest.take_while(llvm::isDigit);
    if (digits.empty() || digits.getAsInteger(10, bits) || bits <= 0 ||
        bits > 64)
      return std::nullopt;
  }
  return (count * bits + 7) / 8;
}

llvm::Expected<Extent>
tlc::artifact::getBufferBytes(llvm::StringRef dtype,
                              const std::vector<Extent> &shape) {
  std::optional<int64_t> one = getDTypeBytes(dtype, 1);
  std::optional<int64_t> eight = getDTypeBytes(dtype, 8);
  if (!one || !eight)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "unknown dtype '" + dtype + "'");
  int64_t count = 1;
  std::string symbolic;
  for (const Extent &e : shape) {
    if (e.isStatic)
      count *= e.value;
    else
      symbolic += (symbolic.empty() ? "(" : " * (") + e.expr + ")";
  }
  if (symbolic.empty())
    return Extent::of(*getDTypeBytes(dtype, count));
  // Whole bytes per element: count * size; sub-byte: ceil(count * bits / 8).
  std::string n = std::to_string(count) + " * " + symbolic;
  if (*eight == 8 * *one)
    return Extent::symbolic(n + " * " + std::to_string(*one));
  return Extent::symbolic("ceildiv(" + n + " * " + std::to_string(*eight) +
                          ", 8)");
}

std::string tlc::artifact::sha256Hex(llvm::StringRef data) {
  auto digest = llvm::SHA256::hash(llvm::arrayRefFromStringRef(data));
  return llvm::toHex(digest, /*LowerCase=*/true);
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

static json::Value extentToJSON(const Extent &e) {
  if (e.isStatic)
    return e.value;
  return e.expr;
}

static json::Array extentsToJSON(const std::vector<Extent> &extents) {
  json::Array a;
  for (const Extent &e : extents)
    a.push_back(extentToJSON(e));
  return a;
}

json::Value tlc::artifact::toJSON(const Manifest &m) {
  json::Array symbols, params, launches, files, map;
  for (const Symbol &s : m.symbols)
    symbols.push_back(json::Object{{"name", s.name}, {"kind", s.kind}});
  for (const Param &p : m.params) {
    json::Object o{{"name", p.name},
                   {"kind", p.isTensor ? "tensor" : "scalar"},
                   {"dtype", p.dtype},
                   {"role", getRoleName(p.role)}};
    if (p.isTensor)
      o["shape"] = extentsToJSON(p.shape);
    if (p.isTensor && !p.strides.empty())
      o["strides"] = extentsToJSON(p.strides);
    if (p.pointer)
      o["pointer"] = true;
    if (!p.precision.empty())
      o["precision"] = p.precision;
    if (p.pointee)
      o["pointee"] = json::Object{{"dtype", p.pointee->dtype},
                                  {"shape", extentsToJSON(p.pointee->shape)},
                                  {"role", getRoleName(p.pointee->role)}};
    params.push_back(std::move(o));
  }
  for (const Launch &l : m.launches) {
    json::Object o{{"grid", extentsToJSON(l.grid)},
                   {"block", extentsToJSON(l.block)},
                   {"dynamic_shared_memory",
                    extentToJSON(l.dynamicSharedMemory)},
                   {"location", l.location}};
    if (!l.entry.empty())
      o["entry"] = l.entry;
    if (l.cooperative)
      o["cooperative"] = true;
    if (!l.cluster.empty()) {
      json::Array dims;
      for (int64_t d : l.cluster)
        dims.push_back(d);
      o["cluster"] = std::move(dims);
    }
    if (!l.workspaces.empty()) {
      json::Array names;
      for (const std::string &w : l.workspaces)
        names.push_back(w);
      o["workspaces"] = std::move(names);
    }
    if (!l.tensorMaps.empty()) {
      json::Array maps;
      auto ints = [](const std::vector<int64_t> &v) {
        json::Array a;
        for (int64_t x : v)
          a.push_back(x);
        return a;
      };
      for (const TensorMap &t : l.tensorMaps)
        maps.push_back(json::Object{{"param", t.param},
                                    {"dtype", t.dtype},
                                    {"dims", ints(t.dims)},
                                    {"strides", ints(t.strides)},
                                    {"box", ints(t.box)},
                                    {"swizzle", t.swizzle},
                                    {"interleave", t.interleave},
                                    {"l2_promotion", t.l2Promotion},
                                    {"oob_fill", t.oobFill}});
      o["tensor_maps"] = std::move(maps);
    }
    launches.push_back(std::move(o));
  }
  for (const std::string &f : m.sourceMapFiles)
    files.push_back(f);
  for (const SourceMapEntry &e : m.sourceMap)
    map.push_back(json::Array{e.generatedLine, e.fileIndex, e.line, e.column,
                              e.endLine, e.endColumn});
  json::Object root{
      {"format", "tlc-kernel"},
      // Version 1 readers can run an instance without workspaces.
      {"version", llvm::any_of(m.params,
                               [](const Param &p) {
                                 return !p.strides.empty();
                               })
                      ? int64_t(6)
                  : llvm::any_of(m.launches,
                               [](const Launch &l) {
                                 return !l.dynamicSharedMemory.isStatic;
                               })
                      ? int64_t(5)
                  : llvm::any_of(m.params,
                                 [](const Param &p) {
                                   return p.pointer || p.pointee;
                                 })
                      ? int64_t(4)
                  : llvm::any_of(m.launches,
                                 [](const Launch &l) {
                                   return !l.tensorMaps.empty();
                                 })
                      ? int64_t(3)
                  : m.workspaces.empty() ? kMinManifestVersion
                                         : int64_t(2)},
      {"name", m.name},
      {"kernel", m.kernel},
      {"target", m.target},
      {"source_file", m.sourceFile},
      {"generated_source", m.generatedSource},
      {"binary", m.binary},
      {"entry", m.entry},
      {"source_hash", m.sourceHash},
      {"symbols", std::move(symbols)},
      {"params", std::move(params)},
      {"launches", std::move(launches)},
      {"source_map",
       json::Object{{"files", std::move(files)},
                    {"columns", json::Array{"generated_line", "file", "line",
                                            "col", "end_line", "end_col"}},
                    {"entries", std::move(map)}}},
  };
  if (!m.layoutsOf.empty())
    root["layouts_of"] = m.layoutsOf;
  if (!m.workspaces.empty()) {
    json::Array workspaces;
    for (const Workspace &w : m.workspaces)
      workspaces.push_back(json::Object{{"name", w.name},
                                        {"dtype", w.dtype},
                                        {"shape", extentsToJSON(w.shape)},
                                        {"bytes", extentToJSON(w.bytes)}});
    root["workspaces"] = std::move(workspaces);
  }
  return root;
}

std::string tlc::artifact::layoutFamilyOf(llvm::StringRef target) {
  target.consume_front("cuda:");
  target.consume_front("hip:");
  return llvm::StringSwitch<std::string>(target)
      .Cases({"sm_80", "sm_86", "sm_87", "sm_89", "sm_120", "sm_120a"}, "mma")
      .Cases({"sm_90", "sm_90a"}, "wgmma")
      .Cases({"sm_100", "sm_100a"}, "mma+tmem")
      .Cases({"gfx90a", "gfx942", "gfx950"}, "mfma")
      .Default("");
}

llvm::Error tlc::artifact::writeManifest(const Manifest &manifest,
                                         llvm::StringRef path) {
  std::string text = llvm::formatv("{0:2}", toJSON(manifest)).str() + "\n";
  // An unchanged manifest is left alone (replacing it costs a flush).
  uint64_t size = 0;
  if (!llvm::sys::fs::file_size(path, size) && size == text.size())
    if (auto old = llvm::MemoryBuffer::getFile(
            path, /*IsText=*/false, /*RequiresNullTerminator=*/false))
      if ((*old)->getBuffer() == text)
        return llvm::Error::success();
  return llvm::writeToOutput(path, [&](llvm::raw_ostream &os) {
    os << text;
    return llvm::Error::success();
  });
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

namespace {
/// Reads fields of a JSON object, remembering the first problem.
class Reader {
public:
  std::string problem;

  void fail(const llvm::Twine &what) {
    if (problem.empty())
      problem = what.str();
  }

  std::string str(const json::Object &o, llvm::StringRef key,
                  bool required = true) {
    if (auto s = o.getString(key))
      return s->str();
    if (required)
      fail("missing or non-string field '" + key + "'");
    return {};
  }

  int64_t integer(const json::Object &o, llvm::StringRef key) {
    if (auto i = o.getInteger(key))
      return *i;
    fail("missing or non-integer field '" + key + "'");
    return 0;
  }

  const json::Array *array(const json::Object &o, llvm::StringRef key) {
    if (const json::Array *a = o.getArray(key))
      return a;
    fail("missing or non-array field '" + key + "'");
    return nullptr;
  }

  std::vector<Extent> extents(const json::Object &o, llvm::StringRef key) {
    std::vector<Extent> out;
    const json::Array *a = array(o, key);
    if (!a)
      return out;
    for (const json::Value &v : *a) {
      if (auto i = v.getAsInteger())
        out.push_back(Extent::of(*i));
      else if (auto s = v.getAsString())
        out.push_back(Extent::symbolic(s->str()));
      else
        fail("field '" + key + "' holds an extent that is neither an "
             "integer nor a string");
    }
    return out;
  }
};
} // namespace

/// The `role` field of \p o; \p what names the object in errors.
static Role readRole(Reader &r, const json::Object &o,
                     const llvm::Twine &what) {
  std::string role = r.str(o, "role");
  if (role == "in")
    return Role::In;
  if (role == "out")
    return Role::Out;
  if (role == "inout")
    return Role::InOut;
  r.fail(what + " has role '" + role + "'");
  return Role::In;
}

llvm::Expected<Manifest>
tlc::artifact::manifestFromJSON(const json::Value &value) {
  const json::Object *root = value.getAsObject();
  if (!root)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "manifest is not a JSON object");
  Reader r;
  Manifest m;
  if (r.str(*root, "format") != "tlc-kernel" && r.problem.empty())
    r.fail("field 'format' is not \"tlc-kernel\"");
  m.version = r.integer(*root, "version");
  if (r.problem.empty() &&
      (m.version < kMinManifestVersion || m.version > kManifestVersion))
    r.fail("unsupported manifest version " + llvm::Twine(m.version) +
           " (this tlc reads versions " + llvm::Twine(kMinManifestVersion) +
           " to " + llvm::Twine(kManifestVersion) + ")");
  m.name = r.str(*root, "name");
  m.kernel = r.str(*root, "kernel");
  m.target = r.str(*root, "target");
  m.sourceFile = r.str(*root, "source_file", /*required=*/false);
  m.generatedSource = r.str(*root, "generated_source", false);
  m.binary = r.str(*root, "binary");
  m.entry = r.str(*root, "entry");
  m.sourceHash = r.str(*root, "source_hash", false);
  m.layoutsOf = r.str(*root, "layouts_of", false);
  if (const json::Array *a = r.array(*root, "symbols"))
    for (const json::Value &v : *a) {
      const json::Object *o = v.getAsObject();
      if (!o) {
        r.fail("a symbol is not an object");
        continue;
      }
      m.symbols.push_back({r.str(*o, "name"), r.str(*o, "kind")});
    }
  if (const json::Array *a = r.array(*root, "params"))
    for (const json::Value &v : *a) {
      const json::Object *o = v.getAsObject();
      if (!o) {
        r.fail("a parameter is not an object");
        continue;
      }
      Param p;
      p.name = r.str(*o, "name");
      std::string kind = r.str(*o, "kind");
      p.isTensor = kind == "tensor";
      if (kind != "tensor" && kind != "scalar")
        r.fail("parameter '" + p.name + "' has kind '" + kind +
               "' (expected tensor or scalar)");
      p.dtype = r.str(*o, "dtype");
      p.role = readRole(r, *o, "parameter '" + p.name + "'");
      if (p.isTensor)
        p.shape = r.extents(*o, "shape");
      p.precision = r.str(*o, "precision", false);
      if (o->get("strides")) {
        p.strides = r.extents(*o, "strides");
        if (!p.isTensor || p.strides.size() != p.shape.size())
          r.fail("parameter '" + p.name + "' has 'strides' but not one per "
                 "dimension of a tensor");
      }
      if (std::optional<bool> ptr = o->getBoolean("pointer"))
        p.pointer = *ptr;
      else if (o->get("pointer"))
        r.fail("parameter '" + p.name + "': 'pointer' is not a boolean");
      if (p.pointer && !p.isTensor)
        r.fail("parameter '" + p.name + "' is a pointer but not a tensor");
      if (const json::Value *pv = o->get("pointee")) {
        const json::Object *po = pv->getAsObject();
        if (!po) {
          r.fail("parameter '" + p.name + "': 'pointee' is not an object");
        } else {
          Pointee pt;
          pt.dtype = r.str(*po, "dtype");
          pt.shape = r.extents(*po, "shape");
          pt.role = readRole(r, *po, "the pointee of parameter '" + p.name + "'");
          p.pointee = std::move(pt);
        }
        if (!p.isTensor || p.dtype != "int64" || p.shape.size() != 1)
          r.fail("parameter '" + p.name + "' has a 'pointee' but is not a "
                 "one-dimensional int64 tensor (a pointer table)");
      }
      m.params.push_back(std::move(p));
    }
  if (const json::Array *a = r.array(*root, "launches"))
    for (const json::Value &v : *a) {
      const json::Object *o = v.getAsObject();
      if (!o) {
        r.fail("a launch is not an object");
        continue;
      }
      Launch l;
      l.grid = r.extents(*o, "grid");
      l.block = r.extents(*o, "block");
      if (const json::Value *smem = o->get("dynamic_shared_memory")) {
        if (auto i = smem->getAsInteger())
          l.dynamicSharedMemory = Extent::of(*i);
        else if (auto s = smem->getAsString())
          l.dynamicSharedMemory = Extent::symbolic(s->str());
        else
          r.fail("a launch's 'dynamic_shared_memory' is neither an integer "
                 "nor a string");
      }
      l.location = r.str(*o, "location", false);
      l.entry = r.str(*o, "entry", false);
      l.cooperative = o->getBoolean("cooperative").value_or(false);
      if (const json::Array *dims = o->getArray("cluster")) {
        for (const json::Value &d : *dims) {
          std::optional<int64_t> v = d.getAsInteger();
          if (!v || *v <= 0) {
            r.fail("a launch's 'cluster' holds a non-positive or non-integer "
                   "extent");
            break;
          }
          l.cluster.push_back(*v);
        }
        if (l.cluster.size() > 3)
          r.fail("a launch's 'cluster' has more than 3 extents");
      }
      if (const json::Array *ws = o->getArray("workspaces"))
        for (const json::Value &w : *ws) {
          if (auto s = w.getAsString())
            l.workspaces.push_back(s->str());
          else
            r.fail("a launch's 'workspaces' holds a non-string");
        }
      if (const json::Array *ts = o->getArray("tensor_maps"))
        for (const json::Value &tv : *ts) {
          const json::Object *t = tv.getAsObject();
          if (!t) {
            r.fail("a launch's tensor map is not an object");
            continue;
          }
          TensorMap map;
          map.param = r.str(*t, "param");
          map.dtype = r.str(*t, "dtype");
          auto ints = [&](llvm::StringRef key) {
            std::vector<int64_t> v;
            const json::Array *a = t->getArray(key);
            if (!a) {
              r.fail("tensor map of '" + map.param + "' has no '" + key +
                     "' array");
              return v;
            }
            for (const json::Value &x : *a) {
              if (auto i = x.getAsInteger(); i && *i >= 0)
                v.push_back(*i);
              else
                r.fail("tensor map of '" + map.param + "': '" + key +
                       "' holds a value that is not a natural number");
            }
            return v;
          };
          map.dims = ints("dims");
          map.strides = ints("strides");
          map.box = ints("box");
          map.swizzle = t->getInteger("swizzle").value_or(-1);
          map.interleave = r.str(*t, "interleave");
          map.l2Promotion = r.str(*t, "l2_promotion");
          map.oobFill = r.str(*t, "oob_fill");
          size_t rank = map.dims.size();
          if (rank < 2 || rank > 5 || map.strides.size() + 1 != rank ||
              map.box.size() != rank)
            r.fail("tensor map of '" + map.param +
                   "': dims, strides and box do not describe a tensor of "
                   "rank 2 to 5");
          if (!llvm::is_contained({0, 32, 64, 128}, map.swizzle))
            r.fail("tensor map of '" + map.param + "' has swizzle " +
                   llvm::Twine(map.swizzle) + " (0, 32, 64 or 128)");
          l.tensorMaps.push_back(std::move(map));
        }
      m.launches.push_back(std::move(l));
    }
  if (const json::Array *a = root->getArray("workspaces"))
    for (const json::Value &v : *a) {
      const json::Object *o = v.getAsObject();
      if (!o) {
        r.fail("a workspace is not an object");
        continue;
      }
      Workspace w;
      w.name = r.str(*o, "name");
      w.dtype = r.str(*o, "dtype");
      w.shape = r.extents(*o, "shape");
      if (auto i = o->getInteger("bytes"))
        w.bytes = Extent::of(*i);
      else if (auto s = o->getString("bytes"))
        w.bytes = Extent::symbolic(s->str());
      else
        r.fail("workspace '" + w.name + "' has no integer or string 'bytes'");
      m.workspaces.push_back(std::move(w));
    }
  // Every workspace a launch names is declared.
  for (const Launch &l : m.launches)
    for (const std::string &w : l.workspaces)
      if (llvm::none_of(m.workspaces,
                        [&](const Workspace &d) { return d.name == w; }))
        r.fail("a launch takes workspace '" + w +
               "', which 'workspaces' does not declare");
  if (const json::Object *sm = root->getObject("source_map")) {
    if (const json::Array *files = sm->getArray("files"))
      for (const json::Value &f : *files)
        if (auto s = f.getAsString())
          m.sourceMapFiles.push_back(s->str());
    if (const json::Array *entries = sm->getArray("entries"))
      for (const json::Value &e : *entries) {
        const json::Array *row = e.getAsArray();
        if (!row || row->size() != 6) {
          r.fail("a source map entry is not an array of 6 integers");
          continue;
        }
        unsigned f[6];
        for (unsigned i = 0; i < 6; ++i)
          f[i] = unsigned((*row)[i].getAsInteger().value_or(0));
        m.sourceMap.push_back({f[0], f[1], f[2], f[3], f[4], f[5]});
      }
  }
  if (!r.problem.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), r.problem);
  return m;
}

llvm::Expected<Manifest> tlc::artifact::readManifest(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return llvm::createStringError(buffer.getError(),
                                   "cannot read manifest '" + path +
                                       "': " + buffer.getError().message());
  auto value = json::parse((*buffer)->getBuffer());
  if (!value)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "corrupt manifest '" + path +
            "': not valid JSON: " + llvm::toString(value.takeError()));
  auto m = manifestFromJSON(*value);
  if (!m)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "corrupt manifest '" + path + "': " +
                                       llvm::toString(m.takeError()));
  return m;
}
