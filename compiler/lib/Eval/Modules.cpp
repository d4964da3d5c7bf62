//===- Modules.cpp - Modules imported from next to the analysed file ------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A script that imports a helper module from its own directory (`from
// example_fusedmoe_torch import *`, `import utils`, `from .config import
// BLOCK`) gets that module's values, as Python does with the script's
// directory first on sys.path: the file is parsed and its top-level
// statements run in a namespace of their own.
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

std::optional<Value> Interpreter::importSibling(llvm::StringRef name,
                                                unsigned level, Node at) {
  // Dotted names (`pkg.mod`) and relative imports above the file's own
  // directory are left to the opaque path.
  if (name.empty() || name.contains('.') || level > 1)
    return std::nullopt;
  if (isForeign(at))
    return std::nullopt; // imports of imported modules stay opaque
  auto cached = siblingModules.find(name);
  if (cached != siblingModules.end())
    return Value::object(ValueKind::Module, cached->second);
  llvm::SmallString<256> path = llvm::sys::path::parent_path(tree.fileName());
  llvm::sys::path::append(path, name + ".py");
  if (path == tree.fileName())
    return std::nullopt;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buf =
      llvm::MemoryBuffer::getFile(path);
  if (!buf)
    return std::nullopt;
  std::shared_ptr<const syntax::SyntaxTree> parsed =
      syntax::parseFile((*buf)->getBuffer(), heap.copyString(path));
  siblingTrees.push_back(parsed);

  auto *m = heap.make<ModuleObj>();
  m->name = heap.copyString(name);
  m->globals = heap.make<Env>();
  siblingModules[m->name] = m;
  Value mod = Value::object(ValueKind::Module, m);

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
      warning(stmt.range(), msg + " (raised while importing the module; "
                                  "its later names are unknown)");
      pending = {};
      break;
    }
  }
  return mod;
}

void Interpreter::importStar(ModuleObj *m) {
  for (auto &[name, value] : m->globals->vars)
    if (!name.starts_with("_"))
      bind(name, value);
}
