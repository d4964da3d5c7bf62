//===- ProtocolJSON.cpp - JSON <-> server API structs ---------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ProtocolJSON.h"

using namespace tlc;
using namespace tlc::lsp;

const json &tlc::lsp::getField(const json &obj, const char *key) {
  if (!obj.is_object())
    throw ParamError{std::string("expected an object with '") + key + "'"};
  auto it = obj.find(key);
  if (it == obj.end())
    throw ParamError{std::string("missing field '") + key + "'"};
  return *it;
}

const json *tlc::lsp::getOptionalField(const json &obj, const char *key) {
  if (!obj.is_object())
    throw ParamError{std::string("expected an object with '") + key + "'"};
  auto it = obj.find(key);
  return it == obj.end() || it->is_null() ? nullptr : &*it;
}

std::string tlc::lsp::getString(const json &value, const char *what) {
  if (!value.is_string())
    throw ParamError{std::string(what) + ": expected a string"};
  return value.get<std::string>();
}

int64_t tlc::lsp::getInteger(const json &value, const char *what) {
  if (!value.is_number_integer())
    throw ParamError{std::string(what) + ": expected an integer"};
  return value.get<int64_t>();
}

uint32_t tlc::lsp::getUnsigned(const json &value, const char *what) {
  int64_t v = getInteger(value, what);
  if (v < 0 || v > 0xffffffffLL)
    throw ParamError{std::string(what) + ": out of range"};
  return static_cast<uint32_t>(v);
}

std::string tlc::lsp::getDocumentUri(const json &params) {
  return getString(getField(getField(params, "textDocument"), "uri"),
                   "textDocument.uri");
}

Position tlc::lsp::readPosition(const json &value) {
  return Position{getUnsigned(getField(value, "line"), "line"),
                  getUnsigned(getField(value, "character"), "character")};
}

Range tlc::lsp::readRange(const json &value) {
  return Range{readPosition(getField(value, "start")),
               readPosition(getField(value, "end"))};
}

ContentChange tlc::lsp::readContentChange(const json &value) {
  ContentChange change;
  change.text = getString(getField(value, "text"), "contentChanges.text");
  if (const json *range = getOptionalField(value, "range"))
    change.range = readRange(*range);
  return change;
}

/// Reads an optional boolean setting.
static void readBool(const json &obj, const char *key, bool &out,
                     std::string &warnings) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null())
    return;
  if (it->is_boolean())
    out = it->get<bool>();
  else
    warnings += std::string(" '") + key + "' is not a boolean;";
}

void tlc::lsp::readConfig(const json &value, Config &config,
                          std::string &warnings) {
  if (!value.is_object()) {
    if (!value.is_null())
      warnings += " settings are not an object;";
    return;
  }
  if (auto it = value.find("target"); it != value.end() && !it->is_null()) {
    if (it->is_string())
      config.target = it->get<std::string>();
    else
      warnings += " 'target' is not a string;";
  }
  if (auto it = value.find("instance"); it != value.end() && !it->is_null()) {
    if (it->is_number_unsigned())
      config.instance = it->get<unsigned>();
    else
      warnings += " 'instance' is not a non-negative integer;";
  }
  readBool(value, "semanticTokens", config.semanticTokens, warnings);
  if (auto it = value.find("inlayHints"); it != value.end()) {
    if (it->is_boolean()) {
      bool on = it->get<bool>();
      config.inlayHints = InlayHintCategories{on, on, on, on};
    } else if (it->is_object()) {
      readBool(*it, "buffers", config.inlayHints.buffers, warnings);
      readBool(*it, "layouts", config.inlayHints.layouts, warnings);
      readBool(*it, "launches", config.inlayHints.launches, warnings);
      readBool(*it, "pipelines", config.inlayHints.pipelines, warnings);
    } else if (!it->is_null()) {
      warnings += " 'inlayHints' is not an object;";
    }
  }
}

InlayHint tlc::lsp::readInlayHint(const json &value, std::string &uri) {
  InlayHint hint;
  hint.position = readPosition(getField(value, "position"));
  const json &label = getField(value, "label");
  hint.label = label.is_string() ? label.get<std::string>() : label.dump();
  const json &data = getField(value, "data");
  uri = getString(getField(data, "uri"), "data.uri");
  hint.version = getInteger(getField(data, "version"), "data.version");
  hint.index = getUnsigned(getField(data, "index"), "data.index");
  uint32_t kind = getUnsigned(getField(data, "kind"), "data.kind");
  if (kind > static_cast<uint32_t>(HintKind::Exchange))
    throw ParamError{"data.kind: out of range"};
  hint.kind = static_cast<HintKind>(kind);
  return hint;
}

Command tlc::lsp::readCommand(const json &value) {
  Command command;
  command.command = getString(getField(value, "command"), "command");
  if (const json *args = getOptionalField(value, "arguments")) {
    if (!args->is_array())
      throw ParamError{"arguments: expected an array"};
    for (const json &arg : *args)
      command.arguments.push_back(arg.is_string() ? arg.get<std::string>()
                                                  : arg.dump());
  }
  return command;
}

json tlc::lsp::toJSON(const Position &pos) {
  return json{{"line", pos.line}, {"character", pos.character}};
}

json tlc::lsp::toJSON(const Range &range) {
  return json{{"start", toJSON(range.start)}, {"end", toJSON(range.end)}};
}

json tlc::lsp::toJSON(const Location &loc) {
  return json{{"uri", loc.uri}, {"range", toJSON(loc.range)}};
}

json tlc::lsp::toJSON(const Diag &diag) {
  json result{{"range", toJSON(diag.range)},
              {"severity", static_cast<int>(diag.severity)},
              {"source", diag.source},
              {"message", diag.message}};
  if (!diag.related.empty()) {
    json related = json::array();
    for (const DiagRelated &r : diag.related)
      related.push_back(
          json{{"location", toJSON(r.location)}, {"message", r.message}});
    result["relatedInformation"] = std::move(related);
  }
  return result;
}

json tlc::lsp::toJSON(const InlayHint &hint, const std::string &uri) {
  json result{{"position", toJSON(hint.position)},
              {"label", hint.label},
              {"kind", 1}, // InlayHintKind.Type
              {"paddingLeft", true},
              {"data",
               {{"uri", uri},
                {"version", hint.version},
                {"index", hint.index},
                {"kind", static_cast<int>(hint.kind)}}}};
  if (!hint.tooltip.empty())
    result["tooltip"] = json{{"kind", "markdown"}, {"value", hint.tooltip}};
  return result;
}

json tlc::lsp::toJSON(const HoverInfo &hover) {
  json result{{"contents", {{"kind", "markdown"}, {"value", hover.markdown}}}};
  if (hover.range)
    result["range"] = toJSON(*hover.range);
  return result;
}

json tlc::lsp::toJSON(const DocumentSymbol &symbol) {
  json result{{"name", symbol.name},
              {"kind", static_cast<int>(symbol.kind)},
              {"range", toJSON(symbol.range)},
              {"selectionRange", toJSON(symbol.selectionRange)}};
  if (!symbol.detail.empty())
    result["detail"] = symbol.detail;
  if (!symbol.children.empty()) {
    json children = json::array();
    for (const DocumentSymbol &child : symbol.children)
      children.push_back(toJSON(child));
    result["children"] = std::move(children);
  }
  return result;
}

json tlc::lsp::toJSON(const CodeLens &lens) {
  json args = json::array();
  for (const std::string &arg : lens.command.arguments)
    args.push_back(arg);
  return json{{"range", toJSON(lens.range)},
              {"command",
               {{"title", lens.command.title},
                {"command", lens.command.command},
                {"arguments", std::move(args)}}}};
}

json tlc::lsp::toJSON(const GeneratedSource &source) {
  return json{{"uri", source.uri},
              {"language", source.language},
              {"range", toJSON(source.range)}};
}

json tlc::lsp::toJSON(const LayoutPicture &p) {
  json cells;
  if (p.kind == "fragment")
    cells = json{{"thread", p.thread}, {"register", p.reg}};
  else
    cells = json{{"offset", p.offset}, {"bank", p.bank}};
  return json{{"name", p.name},
              {"kernel", p.kernel},
              {"instance", p.instance},
              {"instanceIndex", p.instanceIndex},
              {"instances", p.instances},
              {"range", toJSON(p.range)},
              {"target", p.target},
              {"kind", p.kind},
              {"title", p.title},
              {"rows", p.rows},
              {"cols", p.cols},
              {"cells", std::move(cells)},
              {"text", p.text},
              {"svg", p.svg},
              {"exchanges", [&] {
                 json all = json::array();
                 auto access = [](const LayoutPicture::ExchangeTile::Access &a) {
                   return json{{"degree", a.degree},
                               {"lanes", a.lanes},
                               {"wordsPerBank", a.wordsPerBank}};
                 };
                 for (const LayoutPicture::ExchangeTile &x : p.exchanges)
                   all.push_back(json{{"statement", toJSON(x.statement)},
                                      {"label", x.label},
                                      {"memory", x.memory},
                                      {"offset", x.offset},
                                      {"elementBytes", x.elementBytes},
                                      {"rows", x.rows},
                                      {"cols", x.cols},
                                      {"bank", x.bank},
                                      {"stores", access(x.stores)},
                                      {"loads", access(x.loads)}});
                 return all;
               }()}};
}

json tlc::lsp::encodeSemanticTokens(const std::vector<SemanticToken> &tokens) {
  json data = json::array();
  uint32_t line = 0, start = 0;
  for (const SemanticToken &tok : tokens) {
    uint32_t deltaLine = tok.line - line;
    uint32_t deltaStart = deltaLine == 0 ? tok.start - start : tok.start;
    data.push_back(deltaLine);
    data.push_back(deltaStart);
    data.push_back(tok.length);
    data.push_back(static_cast<uint32_t>(tok.type));
    data.push_back(tok.modifiers);
    line = tok.line;
    start = tok.start;
  }
  return json{{"data", std::move(data)}};
}
