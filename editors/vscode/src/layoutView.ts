//===- layoutView.ts - The layout picture of a buffer, beside the kernel ---===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A webview beside the kernel that shows tlc-lsp's `tilelang/layout`
// picture of one buffer: the SVG (zoomable), the instance it belongs to
// (a picker when the kernel has several) and a readout that names the cell
// under the mouse, (i, j) <-> (thread, register) for fragments and
// (i, j) <-> (offset, bank) for shared buffers, highlighting every cell of
// the same thread or bank. While it is open it follows the cursor: moving
// onto another buffer's allocation or use shows that buffer. Below a
// fragment that the generated code exchanges through shared memory (LDS),
// the exchange tile with its banks and conflicts (exchangeTile.ts).
//
//===----------------------------------------------------------------------===//

import * as vscode from 'vscode';
import { LanguageClient } from 'vscode-languageclient/node';

import { exchangeStyle, renderExchangeTiles } from './exchangeTile';
import {
  isTileLangDocument,
  layoutRequest,
  LayoutParams,
  LayoutResult,
} from './protocol';

/// What the view shows.
interface Shown {
  uri: string;
  name: string;
  line: number;
  instance: number;
}

export class LayoutView implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private shown: Shown | undefined;
  private followTimer: ReturnType<typeof setTimeout> | undefined;
  private seq = 0;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly getClient: () => LanguageClient | undefined,
              private readonly log: vscode.LogOutputChannel) {
    this.disposables.push(vscode.window.onDidChangeTextEditorSelection(
        (e) => this.onSelection(e)));
  }

  dispose(): void {
    if (this.followTimer)
      clearTimeout(this.followTimer);
    this.panel?.dispose();
    for (const d of this.disposables)
      d.dispose();
  }

  /// Shows the buffer at the active editor's cursor.
  async showAtCursor(): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    if (!editor || !isTileLangDocument(editor.document))
      throw new Error('Show Layout needs a TileLang file in the editor');
    const pos = editor.selection.active;
    await this.show({
      textDocument: {uri: editor.document.uri.toString()},
      position: {line: pos.line, character: pos.character},
    }, true);
  }

  /// Shows a buffer from a code lens: [uri, line, character, name].
  async showFromLens(args: unknown[]): Promise<void> {
    const [uri, line, character, name] = args as string[];
    await this.show({
      textDocument: {uri},
      position: {line: Number(line), character: Number(character)},
      buffer: name,
    }, true);
  }

  private async show(params: LayoutParams, report: boolean): Promise<void> {
    const client = this.getClient();
    if (!client)
      throw new Error('the TileLang language server is not running');
    const seq = ++this.seq;
    let result: LayoutResult;
    try {
      result = await client.sendRequest(layoutRequest, params);
    } catch (e) {
      if (report)
        throw e;
      return; // Following the cursor: keep the picture.
    }
    if (seq !== this.seq)
      return; // A newer request is on its way.
    this.render(params.textDocument.uri, result);
  }

  private onSelection(e: vscode.TextEditorSelectionChangeEvent): void {
    if (!this.panel || !isTileLangDocument(e.textEditor.document))
      return;
    if (this.followTimer)
      clearTimeout(this.followTimer);
    this.followTimer = setTimeout(() => {
      const pos = e.textEditor.selection.active;
      void this.show({
        textDocument: {uri: e.textEditor.document.uri.toString()},
        position: {line: pos.line, character: pos.character},
      }, false);
    }, 150);
  }

  private render(uri: string, r: LayoutResult): void {
    const same = this.shown && this.shown.uri === uri &&
                 this.shown.name === r.name &&
                 this.shown.line === r.range.start.line &&
                 this.shown.instance === r.instanceIndex;
    this.shown = {uri, name: r.name, line: r.range.start.line,
                  instance: r.instanceIndex};
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel(
          'tilelang.layout', `Layout: ${r.name}`,
          {viewColumn: vscode.ViewColumn.Beside, preserveFocus: true},
          {enableScripts: true, retainContextWhenHidden: true});
      this.panel.onDidDispose(() => {
        this.panel = undefined;
        this.shown = undefined;
      }, null, this.disposables);
      this.panel.webview.onDidReceiveMessage((m: {instance?: number}) => {
        if (typeof m.instance === 'number' && this.shown)
          void this.show({
            textDocument: {uri: this.shown.uri},
            position: {line: this.shown.line, character: 0},
            buffer: this.shown.name,
            instance: m.instance,
          }, true).catch((e) => this.log.error(String(e)));
      }, null, this.disposables);
    } else if (same) {
      return;
    }
    this.panel.title = `Layout: ${r.name}`;
    this.panel.webview.html = this.html(r);
    this.log.info(`layout view: ${r.title}`);
  }

  private html(r: LayoutResult): string {
    const nonce = Math.random().toString(36).slice(2);
    const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;')
                                .replace(/>/g, '&gt;').replace(/"/g, '&quot;');
    const svg = r.svg.replace(/^<\?xml[^>]*>\s*/, '');
    const options = r.instances.map((label, i) =>
        `<option value="${i}"${i === r.instanceIndex ? ' selected' : ''}>` +
        `${esc(label || `instance ${i + 1}`)}</option>`).join('');
    const picker = r.instances.length > 1
        ? `<label>instance <select id="instance">${options}</select></label>`
        : `<span id="instance-label">${esc(r.instance)}</span>`;
    const fragment = r.kind === 'fragment';
    return `<!DOCTYPE html>
<html><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${nonce}';">
<style>
body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); margin: 0; }
header { position: sticky; top: 0; background: var(--vscode-editor-background); padding: 6px 10px; border-bottom: 1px solid var(--vscode-panel-border); z-index: 1; }
#readout { font-family: var(--vscode-editor-font-family); min-height: 1.4em; }
#picture { padding: 8px; overflow: auto; }
#picture svg { width: calc(100% * var(--zoom, 1)); height: auto; max-width: none; }
rect.cell.same { stroke: black; stroke-width: 2px; }
${exchangeStyle}
</style></head>
<body data-kind="${r.kind}" data-name="${esc(r.name)}">
<header>
<div id="title">${esc(r.title)}</div>
<div>target ${esc(r.target)} · ${picker} · zoom <input id="zoom" type="range" min="1" max="8" step="0.5" value="1"></div>
<div id="readout">hover a cell</div>
</header>
<div id="picture">${svg}</div>
${renderExchangeTiles(r.exchanges)}
<script nonce="${nonce}">
const vscode = acquireVsCodeApi();
const fragment = ${fragment};
const readout = document.getElementById('readout');
const cells = Array.from(document.querySelectorAll('rect.cell'));
const key = (c) => fragment ? c.dataset.thread : c.dataset.bank;
const byKey = new Map();
for (const c of cells) {
  const k = key(c);
  if (!byKey.has(k)) byKey.set(k, []);
  byKey.get(k).push(c);
}
let marked = [];
const exchanges = document.getElementById('exchanges');
if (exchanges) exchanges.addEventListener('mouseover', (e) => {
  const c = e.target.closest ? e.target.closest('rect.xcell') : null;
  if (!c) return;
  const d = c.dataset;
  const fig = c.closest('figure');
  readout.textContent = 'exchange tile (i, j) = (' + d.i + ', ' + d.j + ') \u00b7 bank ' + d.bank +
      (d.lanes ? ' \u00b7 ' + fig.dataset.access + ' of lane' + (d.lanes.includes(' ') ? 's ' : ' ') + d.lanes : '');
});
document.getElementById('picture').addEventListener('mouseover', (e) => {
  const c = e.target.closest ? e.target.closest('rect.cell') : null;
  if (!c) return;
  for (const m of marked) m.classList.remove('same');
  marked = byKey.get(key(c)) || [];
  for (const m of marked) m.classList.add('same');
  const d = c.dataset;
  readout.textContent = fragment
      ? '(i, j) = (' + d.i + ', ' + d.j + ') \u2194 (thread, register) = (' + d.thread + ', ' + d.reg + ') \u00b7 warp ' + Math.floor(d.thread / 32) + ', lane ' + (d.thread % 32) + ' \u00b7 ' + marked.length + ' cells of thread ' + d.thread
      : '(i, j) = (' + d.i + ', ' + d.j + ') \u2194 offset ' + d.offset + ', bank ' + d.bank + ', swizzle phase ' + d.phase + ' \u00b7 ' + marked.length + ' cells in bank ' + d.bank;
});
document.getElementById('zoom').addEventListener('input', (e) => {
  document.getElementById('picture').style.setProperty('--zoom', e.target.value);
});
const select = document.getElementById('instance');
if (select) select.addEventListener('change', () => vscode.postMessage({instance: Number(select.value)}));
</script>
</body></html>`;
  }
}
