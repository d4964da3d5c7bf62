//===- Exceptions.cpp - try statements and Python's exception classes -----===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `try` / `except` / `else` / `finally`, as CPython runs them: the handlers
// are tried in order and the first whose class (or tuple of classes) the
// raised exception is an instance of runs; when none is, the exception goes
// on after `finally`. An exception is known here by its class name, placed
// in the builtin hierarchy (ModuleNotFoundError is an ImportError, KeyError
// a LookupError, every other class an Exception, itself a BaseException).
// A handler whose class tlc cannot evaluate (an attribute of a module it
// does not model) catches what reaches it: what it would catch is unknown.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include <utility>

using namespace tlc;
using namespace tlc::eval;
using syntax::NodeKind;

/// The builtin exception classes below Exception's direct subclasses:
/// each with its base class.
static const std::pair<llvm::StringLiteral, llvm::StringLiteral>
    kExceptionBases[] = {
        {"Exception", "BaseException"},
        {"KeyboardInterrupt", "BaseException"},
        {"SystemExit", "BaseException"},
        {"GeneratorExit", "BaseException"},
        {"BaseExceptionGroup", "BaseException"},
        {"ZeroDivisionError", "ArithmeticError"},
        {"OverflowError", "ArithmeticError"},
        {"FloatingPointError", "ArithmeticError"},
        {"IndexError", "LookupError"},
        {"KeyError", "LookupError"},
        {"ModuleNotFoundError", "ImportError"},
        {"NotImplementedError", "RuntimeError"},
        {"RecursionError", "RuntimeError"},
        {"UnboundLocalError", "NameError"},
        {"UnicodeError", "ValueError"},
        {"UnicodeDecodeError", "UnicodeError"},
        {"UnicodeEncodeError", "UnicodeError"},
        {"UnicodeTranslateError", "UnicodeError"},
        {"FileNotFoundError", "OSError"},
        {"FileExistsError", "OSError"},
        {"PermissionError", "OSError"},
        {"IsADirectoryError", "OSError"},
        {"NotADirectoryError", "OSError"},
        {"TimeoutError", "OSError"},
        {"InterruptedError", "OSError"},
        {"BlockingIOError", "OSError"},
        {"ChildProcessError", "OSError"},
        {"ProcessLookupError", "OSError"},
        {"ConnectionError", "OSError"},
        {"BrokenPipeError", "ConnectionError"},
        {"ConnectionAbortedError", "ConnectionError"},
        {"ConnectionRefusedError", "ConnectionError"},
        {"ConnectionResetError", "ConnectionError"},
        {"IndentationError", "SyntaxError"},
        {"TabError", "IndentationError"},
        {"DeprecationWarning", "Warning"},
        {"PendingDeprecationWarning", "Warning"},
        {"UserWarning", "Warning"},
        {"RuntimeWarning", "Warning"},
        {"FutureWarning", "Warning"},
        {"SyntaxWarning", "Warning"},
        {"ImportWarning", "Warning"},
        {"ResourceWarning", "Warning"},
        {"UnicodeWarning", "Warning"},
        {"BytesWarning", "Warning"},
        {"EncodingWarning", "Warning"},
};

/// The base class of the exception class \p name; empty for BaseException.
/// A class tlc does not know derives from Exception.
static llvm::StringRef exceptionBase(llvm::StringRef name) {
  if (name == "BaseException")
    return "";
  for (const auto &[cls, base] : kExceptionBases)
    if (cls == name)
      return base;
  return "Exception";
}

/// Python's spellings of one class under another name.
static llvm::StringRef canonicalException(llvm::StringRef name) {
  return name == "IOError" || name == "EnvironmentError" ? "OSError" : name;
}

bool tlc::eval::isExceptionSubclass(llvm::StringRef derived,
                                    llvm::StringRef base) {
  derived = canonicalException(derived);
  base = canonicalException(base);
  for (llvm::StringRef c = derived; !c.empty(); c = exceptionBase(c))
    if (c == base)
      return true;
  return false;
}

/// Whether the handler class \p type catches the exception of class \p
/// raised: true or false, or nullopt when \p type is not a class tlc knows.
static std::optional<bool> handlerCatches(Value type, llvm::StringRef raised) {
  if (type.is(ValueKind::Tuple) || type.is(ValueKind::List)) {
    bool unknown = false;
    for (Value t : getElems(type)) {
      std::optional<bool> m = handlerCatches(t, raised);
      if (m && *m)
        return true;
      unknown |= !m;
    }
    return unknown ? std::nullopt : std::optional<bool>(false);
  }
  if (type.isObj(ObjKind::Exception))
    return isExceptionSubclass(raised, type.as<NamespaceObj>()->name);
  if (type.isObj(ObjKind::Class))
    return raised == type.as<NamespaceObj>()->name;
  return std::nullopt;
}

/// True when a handler of \p tryStmt catches an ImportError by its
/// spelling: a bare `except:`, or a class (or tuple of classes) naming
/// ImportError, ModuleNotFoundError, Exception or BaseException.
static bool catchesImportError(Node tryStmt) {
  auto names = [](Node t) {
    llvm::StringRef n = t.kind() == NodeKind::Name ? t.identifier() : "";
    return n == "ImportError" || n == "ModuleNotFoundError" ||
           n == "Exception" || n == "BaseException";
  };
  for (Node h : tryStmt.children(Field::handlers)) {
    Node type = h.child(Field::type);
    if (!type || names(type))
      return true;
    if (type.kind() == NodeKind::Tuple)
      for (Node e : type.children(Field::elts))
        if (names(e))
          return true;
  }
  return false;
}

Flow Interpreter::execTry(Node stmt) {
  bool guards = catchesImportError(stmt);
  importGuards += guards;
  Flow f = execBody(stmt, Field::body);
  importGuards -= guards;
  if (f == Flow::Raise && !budgetExhausted) {
    PendingException exc = pending;
    for (Node h : stmt.children(Field::handlers)) {
      // A bare `except:` catches everything; a class expression that
      // raises replaces the exception, as in Python.
      if (Node typeNode = h.child(Field::type)) {
        Value type = eval(typeNode);
        if (type.isException())
          return Flow::Raise;
        std::optional<bool> m = handlerCatches(type, exc.type);
        if (m && !*m)
          continue;
      }
      pending = exc;
      if (!h.identifier().empty()) {
        auto *o = heap.make<NamespaceObj>();
        o->name = heap.copyString(exc.type);
        o->set("args", heap.tuple({heap.str(exc.message)}));
        bind(h.identifier(), heap.obj(ObjKind::Exception, o));
      }
      f = execBody(h, Field::body);
      break;
    }
  } else if (f == Flow::Normal) {
    f = execBody(stmt, Field::orelse);
  }
  if (stmt.child(Field::finalbody)) {
    PendingException saved = pending;
    Value savedRet = returnValue;
    Flow g = execBody(stmt, Field::finalbody);
    if (g != Flow::Normal)
      return g;
    pending = saved;
    returnValue = savedRet;
  }
  return f;
}
