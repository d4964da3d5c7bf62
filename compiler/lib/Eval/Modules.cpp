//===- Modules.cpp - Modules imported from next to the analysed file ------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A script that imports a helper module from its own directory (`from
// example_fusedmoe_torch import *`, `import utils`, `from .config import
// BLOCK`, `import pkg.mod`) gets that module's values, as Python does with
// the script's directory first on sys.path: the file is parsed and its
// top-level statements run in a namespace of their own. Imports made by
// those modules resolve the same way (absolute names against the script's
// directory, relative ones against the module's package); a local package
// without the submodule or name asked for is a ModuleNotFoundError /
// ImportError, as in Python.
//
// Diagnostics, IR locations and hints are byte ranges of the analysed file,
// so code of an imported file ("foreign" code) reports at the range in the
// analysed file that entered it (the import statement, or the call of a
// function the module defines), prefixed with the module's name. Kernels
// defined in an imported module are not traced from here (they are
// analysed when that file is checked); kernels of the analysed file that
// use the module's values are.
//
//===----------------------------------------------------------------------===//

#include "IRGen.h"
#include "Interpreter.h"

#include "tlc/Syntax/Parser.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace tlc;
using namespace tlc::eval;
using syntax::Field;
using syntax::Node;
using syntax::NodeKind;

Interpreter::ForeignScope::ForeignScope(Interpreter &in, Node code,
                                        TextRange entry, llvm::StringRef module)
    : in(in) {
  if (!in.isForeign(code))
    return;
  entered = true;
  if (in.foreignDepth++ == 0) {
    in.foreignAnchor = entry;
    in.foreignModule = module.empty()
                           ? llvm::sys::path::stem(code.getTree()->fileName())
                           : module;
  }
}

Interpreter::ForeignScope::~ForeignScope() {
  if (entered)
    --in.foreignDepth;
}

Interpreter::TopLevelScope::TopLevelScope(Interpreter &in, Env *globals)
    : in(in), savedEnv(in.env), savedInstance(in.instance),
      savedKernel(in.kernel), savedTraced(in.traced),
      savedLoops(std::move(in.loops)) {
  in.loops.clear();
  in.env = globals;
  in.instance = nullptr;
  in.kernel = nullptr;
  in.traced = false;
  if (in.ir) {
    savedInsertPoint = in.ir->b.saveInsertionPoint();
    in.ir->b.setInsertionPointToEnd(in.ir->module.getBody());
  }
}

Interpreter::TopLevelScope::~TopLevelScope() {
  if (savedInsertPoint)
    in.ir->b.restoreInsertionPoint(*savedInsertPoint);
  in.env = savedEnv;
  in.instance = savedInstance;
  in.kernel = savedKernel;
  in.traced = savedTraced;
  in.loops = std::move(savedLoops);
}

std::string Interpreter::packageOf(Node at) const {
  if (!isForeign(at))
    return "";
  auto it = treePackages.find(at.getTree());
  return it == treePackages.end() ? "" : it->second;
}

/// True when \p top is a top-level module of every Python (its standard
/// library) or of the environment TileLang runs in: TileLang, TVM and
/// their requirements (tile-ai/tilelang's requirements.txt), torch and
/// what torch installs, and pytest, which TileLang's tests use.
static bool isKnownModule(llvm::StringRef top) {
  static const llvm::StringSet<> known = [] {
    llvm::StringSet<> s;
#define STDLIB_MODULE(Name) s.insert(Name);
#include "StdlibModules.inc"
    for (const char *m :
         {"tilelang", "tvm", "tvm_ffi", "torch", "torch_c_dlpack_ext",
          "numpy", "triton", "cloudpickle", "ml_dtypes", "psutil", "tqdm",
          "typing_extensions", "z3", "sympy", "mpmath", "networkx",
          "jinja2", "markupsafe", "filelock", "fsspec", "setuptools",
          "pkg_resources", "packaging", "pytest", "_pytest"})
      s.insert(m);
    return s;
  }();
  return known.contains(top);
}

std::optional<Value> Interpreter::missingModule(llvm::StringRef name,
                                                Node at) {
  // A module tlc cannot see may be installed; the program is analysed as
  // in an environment without it only where it says what to do then.
  llvm::StringRef top = name.split('.').first;
  if (importGuards == 0 || top.empty() || isKnownModule(top))
    return std::nullopt;
  return raiseDefinite("ModuleNotFoundError",
                       "No module named '" + top + "'", at);
}

std::optional<Value> Interpreter::importSibling(llvm::StringRef name,
                                                unsigned level, Node at) {
  std::string qualified = name.str();
  if (level > 0) {
    // Relative to the package of the importing code. The analysed file and
    // the modules next to it have none: a level-1 import there names a file
    // next to the script (the script may be run as part of a package).
    std::string pkg = packageOf(at);
    llvm::SmallVector<llvm::StringRef, 4> parts;
    if (!pkg.empty())
      llvm::StringRef(pkg).split(parts, '.');
    if (level - 1 > parts.size()) {
      if (parts.empty())
        return std::nullopt;
      return raise("ImportError",
                   "attempted relative import beyond top-level package", at);
    }
    parts.resize(parts.size() - (level - 1));
    std::string base = llvm::join(parts, ".");
    qualified = base.empty() ? name.str()
                : name.empty() ? base
                               : base + "." + name.str();
  }
  if (qualified.empty())
    return std::nullopt;
  return loadLocalModule(qualified, at);
}

std::optional<Value> Interpreter::loadLocalModule(llvm::StringRef qualified,
                                                  Node at) {
  llvm::SmallVector<llvm::StringRef, 4> parts;
  qualified.split(parts, '.');
  // TileLang and TVM are the modules tlc models; a directory of that name
  // next to the script (a source checkout) is not read.
  if (parts[0] == "tilelang" || parts[0] == "tvm")
    return std::nullopt;
  llvm::SmallString<256> dir = llvm::sys::path::parent_path(tree.fileName());
  ModuleObj *parent = nullptr;
  std::string cur;
  for (size_t i = 0; i < parts.size(); ++i) {
    llvm::StringRef part = parts[i];
    cur += (i ? "." : "") + part.str();
    auto cached = siblingModules.find(cur);
    if (cached != siblingModules.end()) {
      parent = cached->second;
      dir = parent->dir;
      continue;
    }
    if (parent && parent->dir.empty())
      return raiseDefinite("ModuleNotFoundError",
                           "No module named '" + cur + "'; '" + parent->name +
                               "' is not a package",
                           at);
    // Python's order: a package directory with __init__.py, then a module
    // file, then a directory as a namespace package.
    llvm::SmallString<256> pkgDir = dir, init, file = dir;
    llvm::sys::path::append(pkgDir, part);
    init = pkgDir;
    llvm::sys::path::append(init, "__init__.py");
    llvm::sys::path::append(file, part + ".py");
    std::string path;
    bool isPackage = false;
    if (llvm::sys::fs::exists(init)) {
      isPackage = true;
      path = std::string(init);
    } else if (llvm::sys::fs::exists(file)) {
      path = std::string(file);
    } else if (llvm::sys::fs::is_directory(pkgDir)) {
      isPackage = true;
    } else {
      if (i == 0)
        return std::nullopt; // not a local module: one from outside
      return raiseDefinite("ModuleNotFoundError",
                           "No module named '" + cur + "'", at);
    }
    if (path == tree.fileName())
      return std::nullopt;
    auto *m = heap.make<ModuleObj>();
    m->name = heap.copyString(cur);
    m->dir = isPackage ? heap.copyString(pkgDir) : llvm::StringRef();
    m->globals = heap.make<Env>();
    siblingModules[m->name] = m;
    Value mod = Value::object(ValueKind::Module, m);
    // A submodule is an attribute of its package once imported.
    if (parent)
      parent->globals->vars[heap.copyString(part)] = mod;
    if (!path.empty() && !runModuleFile(m, path, isPackage, at))
      return Value::exception();
    parent = m;
    dir = m->dir;
  }
  return Value::object(ValueKind::Module, parent);
}

bool Interpreter::runModuleFile(ModuleObj *m, llvm::StringRef path,
                                bool isPackage, Node at) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buf =
      llvm::MemoryBuffer::getFile(path);
  if (!buf) {
    raiseDefinite("ImportError", "cannot read '" + path + "'", at);
    return false;
  }
  runModuleSource(m, (*buf)->getBuffer(), path, isPackage, at);
  return true;
}

void Interpreter::runModuleSource(ModuleObj *m, llvm::StringRef text,
                                  llvm::StringRef path, bool isPackage,
                                  Node at) {
  std::shared_ptr<const syntax::SyntaxTree> parsed =
      syntax::parseFile(text, heap.copyString(path));
  siblingTrees.push_back(parsed);
  // The package its relative imports start from.
  llvm::StringRef name = m->name;
  treePackages[parsed.get()] =
      isPackage ? name.str() : name.rsplit('.').second.empty()
                                   ? std::string()
                                   : name.rsplit('.').first.str();
  m->globals->vars["__name__"] = heap.str(m->name);

  // Run its top-level statements in its own namespace, outside any kernel.
  TopLevelScope top(*this, m->globals);
  ForeignScope scope(*this, parsed->root(), at.range(), m->name);
  for (Node stmt : parsed->root().children(Field::body)) {
    if (budgetExhausted)
      break;
    if (exec(stmt) == Flow::Raise) {
      std::string msg = pending.type;
      if (!pending.message.empty())
        msg += ": " + pending.message;
      // A module that is truly missing fails the import in Python too.
      msg += " (raised while importing the module; its later names are "
             "unknown)";
      if (pending.definite)
        errorAs(pending.type, stmt.range(), msg);
      else
        warning(stmt.range(), msg);
      pending = {};
      break;
    }
  }
}

void Interpreter::importStar(ModuleObj *m) {
  for (auto &[name, value] : m->globals->vars)
    if (!name.starts_with("_"))
      bind(name, value);
}
