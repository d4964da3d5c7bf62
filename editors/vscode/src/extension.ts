//===- extension.ts - TileLang support through tlc-lsp ----------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Activates on Python, starts tlc-lsp once a Python file that imports
// tilelang is open, and adds what LSP has no words for: the generated
// source beside the kernel, the reverse jump, Tile IR, instance and target
// pickers, a status bar item and a restart command.
//
//===----------------------------------------------------------------------===//

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import {
  CodeLens as LspCodeLens,
  CodeLensRequest,
  DocumentSymbol as LspDocumentSymbol,
  DocumentSymbolRequest,
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
} from 'vscode-languageclient/node';

import { GeneratedView, generatedScheme } from './generatedView';
import { LayoutView } from './layoutView';
import {
  errorMessage,
  isTileLangDocument,
  LspRange,
  ServerCommand,
  showLayoutLensCommand,
} from './protocol';

/// The generatedSource target that asks for Tile IR.
const tileTarget = 'tile';

const targets = ['cuda:sm_90a', 'cuda:sm_80', 'hip:gfx942', 'hip:gfx90a',
                 'cpu'];

let extension: TlcExtension | undefined;

export async function activate(context: vscode.ExtensionContext):
    Promise<TlcExtension> {
  extension = new TlcExtension(context);
  context.subscriptions.push(extension);
  await extension.startIfNeeded();
  return extension;
}

export async function deactivate(): Promise<void> {
  await extension?.stop();
  extension = undefined;
}

/// The extension's state: one language client, one status bar item, one
/// generated-source view.
export class TlcExtension implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private starting: Promise<void> | undefined;
  private readonly log: vscode.LogOutputChannel;
  private readonly status: vscode.StatusBarItem;
  private readonly view: GeneratedView;
  private readonly layoutView: LayoutView;
  private readonly disposables: vscode.Disposable[] = [];
  private serverState = 'stopped';
  private lastError = '';

  constructor(private readonly context: vscode.ExtensionContext) {
    this.log = vscode.window.createOutputChannel('TileLang (tlc)',
                                                 {log: true});
    this.status = vscode.window.createStatusBarItem(
        'tilelang.status', vscode.StatusBarAlignment.Right, 100);
    this.status.name = 'TileLang (tlc)';
    this.status.command = 'tlc.statusMenu';
    this.view = new GeneratedView(() => this.runningClient(), this.log);
    this.layoutView = new LayoutView(() => this.runningClient(), this.log);
    const command = (id: string, fn: (...args: any[]) => unknown) =>
        vscode.commands.registerCommand(id, async (...args: any[]) => {
          try {
            return await fn(...args);
          } catch (e) {
            this.reportError(e);
            return undefined;
          }
        });
    this.disposables.push(
        this.log, this.status, this.view, this.layoutView,
        command('tlc.showLayout', () => this.layoutView.showAtCursor()),
        command(showLayoutLensCommand,
                (...args: unknown[]) => this.layoutView.showFromLens(args)),
        command('tlc.showGeneratedSource', () => this.showGenerated()),
        command('tlc.showOriginalSource', () => this.showOriginal()),
        command('tlc.showTileIR', () => this.showTileIR()),
        command('tlc.pickInstance', () => this.pickInstance()),
        command('tlc.pickTarget', () => this.pickTarget()),
        command('tlc.restartServer', () => this.restart()),
        command('tlc.showServerLog', () => this.log.show(true)),
        command('tlc.statusMenu', () => this.statusMenu()),
        vscode.workspace.onDidOpenTextDocument(() => void this.startIfNeeded()),
        vscode.workspace.onDidChangeTextDocument((e) => {
          if (e.document === vscode.window.activeTextEditor?.document)
            this.updateContext();
          void this.startIfNeeded();
        }),
        vscode.window.onDidChangeActiveTextEditor(() => this.updateContext()),
        vscode.workspace.onDidChangeConfiguration((e) => {
          if (e.affectsConfiguration('tilelang.server'))
            void this.restart();
          else if (e.affectsConfiguration('tilelang'))
            this.updateStatus();
        }));
    this.updateContext();
    this.updateStatus();
  }

  dispose(): void {
    for (const d of this.disposables)
      d.dispose();
  }

  /// The client when the server is running.
  runningClient(): LanguageClient | undefined {
    return this.client?.state === State.Running ? this.client : undefined;
  }

  /// Starts the server when a TileLang file is open and it is not running.
  async startIfNeeded(): Promise<void> {
    if (this.client || this.starting)
      return this.starting;
    if (!vscode.workspace.textDocuments.some(isTileLangDocument))
      return;
    this.starting = this.start().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) {
      try {
        await client.stop(2000);
      } catch (e) {
        this.log.warn(`stopping tlc-lsp: ${errorMessage(e)}`);
      }
      await client.dispose();
    }
  }

  async restart(): Promise<void> {
    await this.starting;
    await this.stop();
    this.serverState = 'stopped';
    this.updateStatus();
    this.lastError = '';
    if (vscode.workspace.textDocuments.some(isTileLangDocument))
      await this.startIfNeeded();
  }

  //===--------------------------------------------------------------------===//
  // The language client
  //===--------------------------------------------------------------------===//

  private serverPath(): string {
    const config = vscode.workspace.getConfiguration('tilelang');
    let configured = config.get<string>('server.path', '').trim();
    if (configured) {
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
      configured = configured.replace(/\$\{workspaceFolder\}/g, folder)
                             .replace(/^~(?=\/|$)/, os.homedir());
      return configured;
    }
    const bundled = this.context.asAbsolutePath(path.join('server', 'tlc-lsp'));
    return fs.existsSync(bundled) ? bundled : 'tlc-lsp';
  }

  /// The `tilelang` settings section as the server reads it
  /// (initializationOptions and workspace/configuration).
  static serverSettings(): Record<string, unknown> {
    const config = vscode.workspace.getConfiguration('tilelang');
    return {
      target: config.get<string>('target', 'cuda:sm_90a'),
      instance: config.get<number>('instance', 0),
      semanticTokens: config.get<boolean>('semanticTokens', false),
      inlayHints: {
        buffers: config.get<boolean>('inlayHints.buffers', true),
        layouts: config.get<boolean>('inlayHints.layouts', true),
        launches: config.get<boolean>('inlayHints.launches', true),
        pipelines: config.get<boolean>('inlayHints.pipelines', true),
      },
    };
  }

  private async start(): Promise<void> {
    const command = this.serverPath();
    const args = vscode.workspace.getConfiguration('tilelang')
                     .get<string[]>('server.args', []);
    const serverOptions: ServerOptions = {
      run: {command, args},
      debug: {command, args: [...args, '--log=verbose']},
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [
        {scheme: 'file', language: 'python'},
        {scheme: 'untitled', language: 'python'},
      ],
      outputChannel: this.log,
      initializationOptions: () => TlcExtension.serverSettings(),
      synchronize: {configurationSection: 'tilelang'},
      middleware: {
        workspace: {
          // Answer workspace/configuration with exactly the keys the server
          // reads (the raw section would also carry server.path etc.).
          configuration: (params, token, next) => {
            const items = params.items;
            if (items.every((i) => i.section === 'tilelang'))
              return items.map(() => TlcExtension.serverSettings());
            return next(params, token);
          },
          didChangeConfiguration: (sections, next) => next(sections),
        },
        window: {
          showDocument: async (params, token, next) => {
            const uri = vscode.Uri.parse(params.uri);
            if (params.external || uri.path.endsWith('.py'))
              return next(params, token);
            await this.view.showLocation(undefined, uri, params.selection);
            return {success: true};
          },
        },
        executeCommand: async (command, args, next) => {
          // Code lenses run server commands; route the generated-source
          // lens through the richer view (highlight, follow the cursor).
          if (command === ServerCommand.showGenerated && args.length >= 1)
            return this.showGeneratedFromLens(args);
          if (command === ServerCommand.showTileIR && args.length >= 1)
            return this.showGeneratedFromLens([args[0], args[1], tileTarget]);
          try {
            return await next(command, args);
          } catch (e) {
            this.reportError(e);
            return undefined;
          }
        },
      },
    };
    const client = new LanguageClient('tilelang', 'TileLang (tlc)',
                                       serverOptions, clientOptions);
    this.client = client;
    this.disposables.push(client.onDidChangeState((e) => {
      this.serverState = e.newState === State.Running    ? 'running'
                         : e.newState === State.Starting ? 'starting'
                                                         : 'stopped';
      this.updateStatus();
    }));
    this.serverState = 'starting';
    this.updateStatus();
    this.log.info(`starting ${command} ${args.join(' ')}`);
    try {
      await client.start();
      this.lastError = '';
      this.log.info(`tlc-lsp running (${client.initializeResult?.serverInfo
                        ?.name ?? '?'} ${client.initializeResult?.serverInfo
                        ?.version ?? ''})`);
    } catch (e) {
      this.lastError = errorMessage(e);
      this.serverState = 'failed';
      this.updateStatus();
      this.log.error(`cannot start ${command}: ${this.lastError}`);
      const open = 'Open Settings';
      void vscode.window
          .showErrorMessage(`tlc: cannot start the language server ` +
                                `'${command}': ${this.lastError}`,
                            open)
          .then((choice) => {
            if (choice === open)
              void vscode.commands.executeCommand(
                  'workbench.action.openSettings', 'tilelang.server.path');
          });
    }
  }

  //===--------------------------------------------------------------------===//
  // Status bar and context keys
  //===--------------------------------------------------------------------===//

  private updateContext(): void {
    const doc = vscode.window.activeTextEditor?.document;
    const tileLang = doc !== undefined && isTileLangDocument(doc);
    const generated = doc !== undefined && this.view.isGenerated(doc.uri);
    void vscode.commands.executeCommand('setContext',
                                        'tilelang.isTileLangFile', tileLang);
    void vscode.commands.executeCommand('setContext',
                                        'tilelang.isGeneratedFile', generated);
    if (tileLang || generated)
      this.status.show();
    else
      this.status.hide();
  }

  private updateStatus(): void {
    const target = vscode.workspace.getConfiguration('tilelang')
                       .get<string>('target', 'cuda:sm_90a');
    const icon = this.serverState === 'running'    ? '$(check)'
                 : this.serverState === 'starting' ? '$(sync~spin)'
                 : this.serverState === 'failed'   ? '$(error)'
                                                   : '$(circle-slash)';
    this.status.text = `${icon} tlc ${target}`;
    const tooltip = new vscode.MarkdownString(
        `**tlc-lsp** ${this.serverState}\n\n` +
        `target \`${target}\`\n\nserver \`${this.serverPath()}\`` +
        (this.lastError ? `\n\nerror: ${this.lastError}` : '') +
        `\n\nClick for target, restart and the server log.`);
    this.status.tooltip = tooltip;
    this.status.backgroundColor =
        this.serverState === 'failed'
            ? new vscode.ThemeColor('statusBarItem.errorBackground')
            : undefined;
    this.updateContext();
  }

  private async statusMenu(): Promise<void> {
    const items: (vscode.QuickPickItem & {command: string})[] = [
      {label: '$(target) Pick Target', command: 'tlc.pickTarget'},
      {label: '$(list-selection) Pick Kernel Instance',
       command: 'tlc.pickInstance'},
      {label: '$(debug-restart) Restart Server', command: 'tlc.restartServer'},
      {label: '$(output) Show Server Log', command: 'tlc.showServerLog'},
    ];
    const choice = await vscode.window.showQuickPick(items, {
      title: `tlc-lsp: ${this.serverState}`,
    });
    if (choice)
      await vscode.commands.executeCommand(choice.command);
  }

  private reportError(e: unknown): void {
    const message = errorMessage(e);
    this.log.error(message);
    void vscode.window.showErrorMessage(`tlc: ${message}`);
  }

  //===--------------------------------------------------------------------===//
  // Commands
  //===--------------------------------------------------------------------===//

  private async requireClient(): Promise<LanguageClient> {
    await this.startIfNeeded();
    const client = this.runningClient();
    if (!client)
      throw new Error(this.lastError
                          ? `tlc-lsp is not running: ${this.lastError}`
                          : 'tlc-lsp is not running (open a file that ' +
                                'imports tilelang)');
    return client;
  }

  private tileLangEditor(): vscode.TextEditor {
    const editor = vscode.window.activeTextEditor;
    if (editor && isTileLangDocument(editor.document))
      return editor;
    const visible = vscode.window.visibleTextEditors.find(
        (e) => isTileLangDocument(e.document));
    if (visible)
      return visible;
    throw new Error('no TileLang editor (a Python file that imports ' +
                    'tilelang) is active');
  }

  private async showGenerated(): Promise<void> {
    await this.requireClient();
    const editor = this.tileLangEditor();
    await this.view.show(editor, editor.selection.active);
  }

  private async showGeneratedFromLens(args: unknown[]): Promise<void> {
    try {
      await this.requireClient();
      const uri = vscode.Uri.parse(String(args[0]));
      const line = Number(args[1] ?? 0) || 0;
      const target = args[2] !== undefined ? String(args[2]) : undefined;
      const doc = await vscode.workspace.openTextDocument(uri);
      const editor = await vscode.window.showTextDocument(doc);
      await this.view.show(editor, new vscode.Position(line, 0), target);
    } catch (e) {
      this.reportError(e);
    }
  }

  private async showOriginal(): Promise<void> {
    await this.requireClient();
    const editor = vscode.window.activeTextEditor;
    if (!editor)
      throw new Error('no active editor');
    const found = await this.view.findOriginal(editor.document.uri,
                                               editor.selection.active);
    if (!found)
      throw new Error('no TileLang statement generated this line');
    const source = vscode.window.visibleTextEditors.find(
        (e) => e.document.uri.toString() === found.uri.toString());
    await vscode.window.showTextDocument(found.uri, {
      viewColumn: source?.viewColumn ?? vscode.ViewColumn.One,
      selection: new vscode.Range(found.range.start, found.range.start),
    });
  }

  /// The server's code lenses of `editor` running `command`, nearest kernel
  /// to the cursor first.
  private async lensesFor(client: LanguageClient, editor: vscode.TextEditor,
                          command: string): Promise<LspCodeLens[]> {
    const textDocument = {
      uri: client.code2ProtocolConverter.asUri(editor.document.uri),
    };
    const lenses = ((await client.sendRequest(CodeLensRequest.type,
                                              {textDocument})) ??
                    []).filter((l) => l.command?.command === command);
    const symbols = (await client.sendRequest(DocumentSymbolRequest.type,
                                              {textDocument})) ??
                    [];
    // Kernels enclosing the cursor, innermost last.
    const line = editor.selection.active.line;
    const enclosing: LspRange[] = [];
    const visit = (list: LspDocumentSymbol[]) => {
      for (const s of list) {
        if (!('range' in s) || !s.range)
          continue;
        if (s.range.start.line <= line && line <= s.range.end.line) {
          if (s.detail?.startsWith('@'))
            enclosing.push(s.range);
          visit(s.children ?? []);
        }
      }
    };
    visit(symbols as LspDocumentSymbol[]);
    const score = (l: LspCodeLens) => {
      for (let i = enclosing.length - 1; i >= 0; --i)
        if (enclosing[i].start.line <= l.range.start.line &&
            l.range.start.line <= enclosing[i].end.line)
          return enclosing.length - 1 - i;
      return enclosing.length + Math.abs(l.range.start.line - line);
    };
    return lenses.sort((a, b) => score(a) - score(b));
  }

  /// Tile IR is one more generated source (target "tile") with its own
  /// source map: the same view, at the cursor's statement.
  private async showTileIR(): Promise<void> {
    await this.requireClient();
    const editor = this.tileLangEditor();
    await this.view.show(editor, editor.selection.active, tileTarget);
  }

  private async pickInstance(): Promise<void> {
    const client = await this.requireClient();
    const editor = this.tileLangEditor();
    const lenses = await this.lensesFor(client, editor,
                                        ServerCommand.pickInstance);
    if (lenses.length === 0) {
      void vscode.window.showInformationMessage(
          'tlc: every kernel in this file has a single instance');
      return;
    }
    // One entry per lens: the server titles each with the instance it
    // selects (arguments [uri, kernel, index]).
    const items = lenses.map((l) => ({
      label: l.command!.title,
      description: String(l.command!.arguments?.[1] ?? ''),
      lens: l,
    }));
    const choice = await vscode.window.showQuickPick(items, {
      title: 'Pick the kernel instance the hints show',
    });
    if (!choice)
      return;
    await client.sendRequest(ExecuteCommandRequest.type, {
      command: ServerCommand.pickInstance,
      arguments: choice.lens.command!.arguments ?? [],
    });
  }

  private async pickTarget(): Promise<void> {
    const config = vscode.workspace.getConfiguration('tilelang');
    const current = config.get<string>('target', 'cuda:sm_90a');
    const choice = await vscode.window.showQuickPick(
        targets.map((t) => ({label: t, picked: t === current,
                             description: t === current ? 'active' : ''})),
        {title: 'Target for hints and generated source'});
    if (!choice || choice.label === current)
      return;
    const scope = vscode.workspace.workspaceFolders
                      ? vscode.ConfigurationTarget.Workspace
                      : vscode.ConfigurationTarget.Global;
    await config.update('target', choice.label, scope);
  }
}

export { generatedScheme };
