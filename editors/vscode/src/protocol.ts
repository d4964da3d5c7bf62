//===- protocol.ts - tlc-lsp's custom requests ------------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The requests tlc-lsp adds to LSP 3.17, and the helpers that decide which
// documents are TileLang files.
//
//===----------------------------------------------------------------------===//

import * as vscode from 'vscode';
import { RequestType } from 'vscode-languageclient/node';

/// An LSP position (zero-based line, UTF-16 character).
export interface LspPosition {
  line: number;
  character: number;
}

/// An LSP range.
export interface LspRange {
  start: LspPosition;
  end: LspPosition;
}

/// Params of `tilelang/generatedSource`.
export interface GeneratedSourceParams {
  textDocument: { uri: string };
  position: LspPosition;
  target?: string;
}

/// Result of `tilelang/generatedSource`: the generated file (in the
/// server's cache directory), its language and the range generated from the
/// statement at the requested position.
export interface GeneratedSourceResult {
  uri: string;
  language: string;
  range: LspRange;
}

/// Params of `tilelang/originalSource` (a position in a generated file).
export interface OriginalSourceParams {
  textDocument: { uri: string };
  position: LspPosition;
}

/// Result of `tilelang/originalSource`: the DSL statement.
export interface OriginalSourceResult {
  uri: string;
  range: LspRange;
}

export const generatedSourceRequest = new RequestType<
  GeneratedSourceParams,
  GeneratedSourceResult,
  void
>('tilelang/generatedSource');

export const originalSourceRequest = new RequestType<
  OriginalSourceParams,
  OriginalSourceResult,
  void
>('tilelang/originalSource');

/// Params of `tilelang/layout`: a buffer by position (its allocation or a
/// use) or by name, and optionally which of its instances.
export interface LayoutParams {
  textDocument: { uri: string };
  position?: LspPosition;
  buffer?: string;
  instance?: number;
}

/// Result of `tilelang/layout`: the picture and the cell map of one buffer.
export interface LayoutResult {
  name: string;
  kernel: string;
  instance: string;
  instanceIndex: number;
  instances: string[];
  range: LspRange;
  target: string;
  kind: 'fragment' | 'shared';
  title: string;
  rows: number;
  cols: number;
  cells: { thread?: number[]; register?: number[]; offset?: number[]; bank?: number[] };
  text: string;
  svg: string;
  /// The fragment's exchanges through shared memory (LDS on HIP) in the
  /// shown instance's generated code (absent from older servers).
  exchanges?: ExchangeTile[];
}

/// One instruction of an exchange: its bank-conflict degree, the tile
/// element each lane accesses (-1: idle) and, per bank, the distinct 4-byte
/// words the instruction accesses there.
export interface ExchangeAccess {
  degree: number;
  lanes: number[];
  wordsPerBank: number[];
}

/// A fragment exchange of `tilelang/layout`: the row-major tile the code
/// stores the fragment into, the bank of each cell, and the worst store and
/// load instructions.
export interface ExchangeTile {
  statement: LspRange;
  label: string;
  memory: 'shared' | 'LDS';
  offset: number;
  elementBytes: number;
  rows: number;
  cols: number;
  bank: number[];
  stores: ExchangeAccess;
  loads: ExchangeAccess;
}

export const layoutRequest = new RequestType<LayoutParams, LayoutResult, void>(
  'tilelang/layout');

/// The client-side command of the layout code lenses.
export const showLayoutLensCommand = 'tilelang.showLayout';

/// The server-side commands (`workspace/executeCommand`).
export const ServerCommand = {
  pickInstance: 'tilelang.pickInstance',
  showGenerated: 'tilelang.showGenerated',
  showTileIR: 'tilelang.showTileIR',
  reanalyze: 'tilelang.reanalyze',
} as const;

const importPattern = /^[ \t]*(?:import[ \t]+tilelang\b|from[ \t]+tilelang\b)/m;

/// True when `doc` is a Python file that imports tilelang (the same test the
/// server applies before analysing a file).
export function isTileLangDocument(doc: vscode.TextDocument): boolean {
  if (doc.languageId !== 'python')
    return false;
  if (doc.uri.scheme !== 'file' && doc.uri.scheme !== 'untitled' &&
      doc.uri.scheme !== 'vscode-remote')
    return false;
  return importPattern.test(doc.getText());
}

/// Converts an LSP range to a VS Code range.
export function toRange(range: LspRange): vscode.Range {
  return new vscode.Range(range.start.line, range.start.character,
                          range.end.line, range.end.character);
}

/// The message of an LSP error reply (or of any thrown value).
export function errorMessage(error: unknown): string {
  if (error && typeof error === 'object' && 'message' in error)
    return String((error as { message: unknown }).message);
  return String(error);
}
