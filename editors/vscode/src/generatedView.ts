//===- generatedView.ts - Generated source beside the kernel ----------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Shows the file tlc-lsp generated for a kernel (CUDA, HIP, CPU C++, Tile
// IR) as a read-only virtual document beside the DSL editor, scrolled to and
// highlighting the range generated from the statement under the cursor, and
// keeps following the cursor. The virtual URI is `tilelang-gen:<path of the
// generated file>`, so the file extension picks the language (`.cu` ->
// cuda-cpp) and the reverse jump knows which file to ask about.
//
//===----------------------------------------------------------------------===//

import * as vscode from 'vscode';
import { LanguageClient } from 'vscode-languageclient/node';

import {
  errorMessage,
  generatedSourceRequest,
  GeneratedSourceResult,
  isTileLangDocument,
  LspRange,
  originalSourceRequest,
  toRange,
} from './protocol';

export const generatedScheme = 'tilelang-gen';

/// The language id VS Code should use for a server `language`.
function toLanguageId(language: string, path: string): string | undefined {
  switch (language) {
  case 'cuda':
  case 'cuda-cpp':
  case 'hip':
    return 'cuda-cpp';
  case 'cpp':
  case 'c++':
    return 'cpp';
  case 'mlir':
  case 'tile':
    return 'mlir';
  }
  if (/\.(cu|cuh|hip)$/.test(path))
    return 'cuda-cpp';
  return undefined;
}

/// What the view currently shows.
interface ViewState {
  /// The DSL document the view follows.
  source: vscode.Uri;
  /// The generated file (a `file:` URI written by the server).
  generated: vscode.Uri;
  /// Its virtual read-only twin.
  virtual: vscode.Uri;
  /// The range generated from the statement at the cursor.
  range: vscode.Range;
  /// Target the view was requested for (undefined: the configured one).
  target?: string;
}

export class GeneratedView implements vscode.TextDocumentContentProvider,
                                      vscode.DefinitionProvider,
                                      vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly highlight = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor('editor.rangeHighlightBackground'),
    borderColor: new vscode.ThemeColor('editor.findMatchHighlightBorder'),
    borderStyle: 'solid',
    borderWidth: '1px 0',
    isWholeLine: true,
    overviewRulerColor: new vscode.ThemeColor(
        'editorOverviewRuler.rangeHighlightForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Center,
  });
  private state: ViewState | undefined;
  private followTimer: ReturnType<typeof setTimeout> | undefined;
  private requestSeq = 0;

  constructor(private readonly getClient: () => LanguageClient | undefined,
              private readonly log: vscode.LogOutputChannel) {
    this.disposables.push(
        this.changed, this.highlight,
        vscode.workspace.registerTextDocumentContentProvider(generatedScheme,
                                                             this),
        vscode.languages.registerDefinitionProvider({scheme: generatedScheme},
                                                    this),
        vscode.window.onDidChangeTextEditorSelection(
            (e) => this.onSelection(e)),
        vscode.workspace.onDidChangeTextDocument((e) => this.onEdit(e)),
        vscode.window.onDidChangeVisibleTextEditors(() => this.decorate()));
  }

  dispose(): void {
    if (this.followTimer)
      clearTimeout(this.followTimer);
    for (const d of this.disposables)
      d.dispose();
  }

  /// True when `uri` is a document this view shows (virtual or the file).
  isGenerated(uri: vscode.Uri): boolean {
    if (uri.scheme === generatedScheme)
      return true;
    return this.state !== undefined &&
           uri.toString() === this.state.generated.toString();
  }

  /// The virtual URI of a generated file.
  static toVirtual(generated: vscode.Uri): vscode.Uri {
    return vscode.Uri.from({scheme: generatedScheme, path: generated.path});
  }

  /// The generated file behind a virtual URI.
  static toFile(uri: vscode.Uri): vscode.Uri {
    return uri.scheme === generatedScheme ? vscode.Uri.file(uri.path) : uri;
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const file = GeneratedView.toFile(uri);
    try {
      const bytes = await vscode.workspace.fs.readFile(file);
      return new TextDecoder('utf-8').decode(bytes);
    } catch (e) {
      return `// tlc: cannot read ${file.fsPath}: ${errorMessage(e)}\n`;
    }
  }

  async provideDefinition(doc: vscode.TextDocument, pos: vscode.Position):
      Promise<vscode.Location | undefined> {
    const target = await this.findOriginal(doc.uri, pos);
    return target ? new vscode.Location(target.uri, target.range) : undefined;
  }

  /// Asks the server for the code generated from the statement at `pos` of
  /// `editor` and shows it. Throws the server's error.
  async show(editor: vscode.TextEditor, pos: vscode.Position,
             target?: string): Promise<vscode.TextEditor> {
    const result = await this.request(editor.document.uri, pos, target);
    return this.open(editor.document.uri, result, target, editor.viewColumn);
  }

  /// Shows a generated file the server named (window/showDocument or a
  /// command result): `range` is highlighted.
  async showLocation(source: vscode.Uri | undefined, generated: vscode.Uri,
                     range: LspRange | undefined): Promise<vscode.TextEditor> {
    const result: GeneratedSourceResult = {
      uri: generated.toString(),
      language: '',
      range: range ?? {start: {line: 0, character: 0},
                       end: {line: 0, character: 0}},
    };
    const src = source ?? this.state?.source ??
                vscode.window.activeTextEditor?.document.uri;
    return this.open(src ?? generated, result, undefined,
                     vscode.window.activeTextEditor?.viewColumn);
  }

  /// The DSL location of `pos` in the generated document `uri`.
  async findOriginal(uri: vscode.Uri, pos: vscode.Position):
      Promise<{uri: vscode.Uri; range: vscode.Range} | undefined> {
    const client = this.getClient();
    if (!client)
      throw new Error('tlc-lsp is not running');
    const file = GeneratedView.toFile(uri);
    const result = await client.sendRequest(originalSourceRequest, {
      textDocument: {uri: file.toString()},
      position: {line: pos.line, character: pos.character},
    });
    if (!result)
      return undefined;
    return {uri: vscode.Uri.parse(result.uri), range: toRange(result.range)};
  }

  private async request(source: vscode.Uri, pos: vscode.Position,
                        target?: string): Promise<GeneratedSourceResult> {
    const client = this.getClient();
    if (!client)
      throw new Error('tlc-lsp is not running');
    const params = {
      textDocument: {uri: client.code2ProtocolConverter.asUri(source)},
      position: {line: pos.line, character: pos.character},
      ...(target ? {target} : {}),
    };
    this.log.debug(`tilelang/generatedSource ${JSON.stringify(params)}`);
    const result = await client.sendRequest(generatedSourceRequest, params);
    if (!result || typeof result.uri !== 'string')
      throw new Error('tlc-lsp returned no generated source');
    return result;
  }

  private async open(source: vscode.Uri, result: GeneratedSourceResult,
                     target: string | undefined,
                     column: vscode.ViewColumn | undefined):
      Promise<vscode.TextEditor> {
    const generated = vscode.Uri.parse(result.uri);
    const virtual = generated.scheme === 'file'
                        ? GeneratedView.toVirtual(generated)
                        : generated;
    const range = toRange(result.range);
    const sameFile =
        this.state?.virtual.toString() === virtual.toString();
    this.state = {source, generated, virtual, range, target};
    if (sameFile)
      this.changed.fire(virtual); // The server may have rewritten it.
    let doc = await vscode.workspace.openTextDocument(virtual);
    const languageId = toLanguageId(result.language, generated.path);
    if (languageId && doc.languageId !== languageId &&
        (await vscode.languages.getLanguages()).includes(languageId))
      doc = await vscode.languages.setTextDocumentLanguage(doc, languageId);
    const editor = await vscode.window.showTextDocument(doc, {
      viewColumn: this.besideColumn(column),
      preserveFocus: true,
      preview: false,
      selection: new vscode.Range(range.start, range.start),
    });
    this.reveal(editor);
    return editor;
  }

  /// The column right of `column` (VS Code's "Beside"), reusing the column
  /// that already shows the view.
  private besideColumn(column: vscode.ViewColumn | undefined):
      vscode.ViewColumn {
    const shown = vscode.window.visibleTextEditors.find(
        (e) => e.document.uri.scheme === generatedScheme);
    if (shown?.viewColumn && shown.viewColumn !== column)
      return shown.viewColumn;
    return vscode.ViewColumn.Beside;
  }

  private reveal(editor: vscode.TextEditor): void {
    if (!this.state)
      return;
    const range = this.state.range;
    editor.selection = new vscode.Selection(range.start, range.start);
    // Centre the start of the mapped code: a range taller than the view
    // (a T.gemm lowers to dozens of lines) would otherwise be centred on its
    // middle, scrolling its first line out of sight.
    editor.revealRange(new vscode.Range(range.start, range.start),
                       vscode.TextEditorRevealType.InCenter);
    this.decorate();
  }

  private decorate(): void {
    for (const editor of vscode.window.visibleTextEditors) {
      if (editor.document.uri.scheme !== generatedScheme)
        continue;
      const shown = this.state &&
                    editor.document.uri.toString() ===
                        this.state.virtual.toString();
      editor.setDecorations(this.highlight,
                            shown ? [this.state!.range] : []);
    }
  }

  private viewVisible(): boolean {
    return this.state !== undefined &&
           vscode.window.visibleTextEditors.some(
               (e) => e.document.uri.toString() ===
                      this.state!.virtual.toString());
  }

  private onSelection(e: vscode.TextEditorSelectionChangeEvent): void {
    if (!this.state || !this.viewVisible())
      return;
    if (e.textEditor.document.uri.toString() !== this.state.source.toString())
      return;
    if (!vscode.workspace.getConfiguration('tilelang')
             .get<boolean>('generated.followCursor', true))
      return;
    this.schedule(e.textEditor, 150);
  }

  private onEdit(e: vscode.TextDocumentChangeEvent): void {
    if (!this.state || e.contentChanges.length === 0 || !this.viewVisible())
      return;
    if (e.document.uri.toString() !== this.state.source.toString())
      return;
    const editor = vscode.window.visibleTextEditors.find(
        (ed) => ed.document === e.document);
    if (editor)
      this.schedule(editor, 500);
  }

  /// Re-requests the mapping for the cursor of `editor` after `delayMs`;
  /// later calls supersede earlier ones.
  private schedule(editor: vscode.TextEditor, delayMs: number): void {
    if (this.followTimer)
      clearTimeout(this.followTimer);
    this.followTimer = setTimeout(() => {
      this.followTimer = undefined;
      void this.follow(editor);
    }, delayMs);
  }

  private async follow(editor: vscode.TextEditor): Promise<void> {
    if (!this.state || !isTileLangDocument(editor.document))
      return;
    const seq = ++this.requestSeq;
    const target = this.state.target;
    try {
      const result = await this.request(editor.document.uri,
                                        editor.selection.active, target);
      if (seq !== this.requestSeq || !this.state)
        return;
      const virtual = GeneratedView.toVirtual(vscode.Uri.parse(result.uri));
      if (virtual.toString() !== this.state.virtual.toString()) {
        await this.open(editor.document.uri, result, target,
                        editor.viewColumn);
        return;
      }
      this.state.range = toRange(result.range);
      this.changed.fire(virtual);
      const view = vscode.window.visibleTextEditors.find(
          (e) => e.document.uri.toString() === virtual.toString());
      if (view)
        this.reveal(view);
    } catch (e) {
      // The statement under the cursor generated nothing (or the file does
      // not compile right now): keep showing the last mapping.
      this.log.debug(`follow: ${errorMessage(e)}`);
    }
  }
}
