//===- ProtocolJSON.h - JSON <-> server API structs -------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Conversions between LSP JSON values and the plain structs of Types.h.
// Private to the protocol layer (LSPServer.cpp); nothing else includes
// nlohmann/json. Readers throw ParamError on a missing field or a wrong
// type; LSPServer turns that into an InvalidParams (-32602) reply.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LSP_PROTOCOLJSON_H
#define TLC_LSP_PROTOCOLJSON_H

#include "Types.h"

#include <nlohmann/json.hpp>

#include <string>

namespace tlc {
namespace lsp {

using json = nlohmann::json;

/// A request's params do not have the expected shape.
struct ParamError {
  /// What is wrong (`textDocument.uri: expected a string`).
  std::string message;
};

/// `obj[key]`; throws ParamError when `obj` is not an object or lacks `key`.
const json &getField(const json &obj, const char *key);
/// `obj[key]` or null when absent (throws when `obj` is not an object).
const json *getOptionalField(const json &obj, const char *key);
/// A string value; throws ParamError naming `what` otherwise.
std::string getString(const json &value, const char *what);
/// An integer value; throws ParamError naming `what` otherwise.
int64_t getInteger(const json &value, const char *what);
/// A non-negative integer that fits 32 bits.
uint32_t getUnsigned(const json &value, const char *what);

/// `params.textDocument.uri`.
std::string getDocumentUri(const json &params);
/// An LSP Position.
Position readPosition(const json &value);
/// An LSP Range.
Range readRange(const json &value);
/// One TextDocumentContentChangeEvent.
ContentChange readContentChange(const json &value);
/// Updates `config` from a `tilelang` settings object; unknown keys and
/// wrong types are ignored (returned in `warnings`).
void readConfig(const json &value, Config &config, std::string &warnings);
/// An InlayHint sent back by `inlayHint/resolve`; also returns its URI.
InlayHint readInlayHint(const json &value, std::string &uri);
/// A Command (`workspace/executeCommand` params).
Command readCommand(const json &value);

/// Writers.
json toJSON(const Position &pos);
json toJSON(const Range &range);
json toJSON(const Location &loc);
json toJSON(const Diag &diag);
json toJSON(const InlayHint &hint, const std::string &uri);
json toJSON(const HoverInfo &hover);
json toJSON(const DocumentSymbol &symbol);
json toJSON(const CodeLens &lens);
json toJSON(const GeneratedSource &source);
json toJSON(const LayoutPicture &picture);
/// The LSP relative encoding of semantic tokens (`data` array).
json encodeSemanticTokens(const std::vector<SemanticToken> &tokens);

} // namespace lsp
} // namespace tlc

#endif // TLC_LSP_PROTOCOLJSON_H
