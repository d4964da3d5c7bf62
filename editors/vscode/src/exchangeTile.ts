//===- exchangeTile.ts - The exchange tile of a fragment, with its banks ---===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// HTML for the layout view's exchange section: where the generated code
// moves a fragment through shared memory (LDS on HIP), the row-major tile
// it stores the fragment into, drawn once for the worst store instruction
// and once for the worst load instruction. Every cell is coloured by its
// bank; the cells the instruction's lanes access carry the lane number, and
// those in a bank that serves more than one word are outlined. A table
// gives, per bank, the words each instruction accesses there (the bank's
// conflict degree). Everything comes from the server's `tilelang/layout`
// result; nothing is computed here but the drawing. No `vscode` import:
// test/exchange-tile.test.mjs runs it under Node.
//
//===----------------------------------------------------------------------===//

import type { ExchangeAccess, ExchangeTile } from './protocol';

/// Cells drawn per side at most; a larger tile is clipped (the table still
/// counts every lane).
export const maxExchangeCells = 128;

const cell = 14;

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;')
          .replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/// One bank's fill: 32 hues, lighter on odd banks so neighbours differ.
function bankColour(bank: number): string {
  const hue = Math.round((bank * 360) / 32);
  return `hsl(${hue}, 55%, ${bank % 2 ? 80 : 68}%)`;
}

function degreeText(degree: number): string {
  return degree === 1 ? 'conflict-free'
       : degree > 1 ? `${degree}-way bank conflict` : 'degree unknown';
}

/// The tile drawn for one instruction.
function picture(x: ExchangeTile, what: 'stores' | 'loads',
                 a: ExchangeAccess): string {
  const rows = Math.min(x.rows, maxExchangeCells);
  const cols = Math.min(x.cols, maxExchangeCells);
  const laneAt = new Map<number, number[]>();
  a.lanes.forEach((e, lane) => {
    if (e < 0)
      return;
    if (!laneAt.has(e))
      laneAt.set(e, []);
    laneAt.get(e)!.push(lane);
  });
  const parts: string[] = [];
  for (let i = 0; i < rows; ++i)
    for (let j = 0; j < cols; ++j) {
      const e = i * x.cols + j;
      const bank = x.bank[e];
      const lanes = laneAt.get(e);
      const conflict = lanes !== undefined && a.wordsPerBank[bank] > 1;
      parts.push(
          `<rect class="xcell${lanes ? ' accessed' : ''}${conflict ? ' conflict' : ''}"` +
          ` x="${j * cell}" y="${i * cell}" width="${cell}" height="${cell}"` +
          ` fill="${bankColour(bank)}" data-i="${i}" data-j="${j}" data-bank="${bank}"` +
          (lanes ? ` data-lanes="${lanes.join(' ')}"` : '') + '/>');
      if (lanes)
        parts.push(`<text x="${j * cell + cell / 2}" y="${i * cell + cell * 0.72}"` +
                   ` text-anchor="middle" font-size="8">${lanes[0]}</text>`);
    }
  const clipped = rows < x.rows || cols < x.cols
      ? ` (first ${rows}×${cols} cells of ${x.rows}×${x.cols})` : '';
  return `<figure class="exchange-picture" data-access="${what}" data-degree="${a.degree}">` +
         `<figcaption>worst ${what === 'stores' ? 'store' : 'load'} instruction: ` +
         `${degreeText(a.degree)}${clipped}</figcaption>` +
         `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${cols * cell} ${rows * cell}"` +
         ` width="${cols * cell}" height="${rows * cell}">${parts.join('')}</svg></figure>`;
}

/// The per-bank table of both instructions.
function bankTable(x: ExchangeTile): string {
  const rows: string[] = [];
  for (let b = 0; b < 32; ++b) {
    const s = x.stores.wordsPerBank[b] ?? 0;
    const l = x.loads.wordsPerBank[b] ?? 0;
    const bar = (n: number) => n
        ? `<span class="bar${n > 1 ? ' conflict' : ''}" style="width:${Math.min(n, 32) * 4}px"></span> ${n}`
        : '';
    rows.push(`<tr data-bank="${b}" data-stores="${s}" data-loads="${l}">` +
              `<td><span class="swatch" style="background:${bankColour(b)}"></span>${b}</td>` +
              `<td>${bar(s)}</td><td>${bar(l)}</td></tr>`);
  }
  return `<table class="banks"><thead><tr><th>bank</th><th>store words</th>` +
         `<th>load words</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/// The exchange section of the layout view (empty without exchanges).
export function renderExchangeTiles(tiles: ExchangeTile[] | undefined): string {
  if (!tiles || tiles.length === 0)
    return '';
  const sections = tiles.map((x, n) =>
      `<section class="exchange" data-exchange="${n}">` +
      `<h3>${escapeHtml(x.label)}</h3>` +
      `<div class="exchange-where">line ${x.statement.start.line + 1}: ` +
      `${x.rows}×${x.cols} tile of ${x.elementBytes}-byte elements in ` +
      `${x.memory === 'LDS' ? 'LDS' : 'shared memory'} at byte ${x.offset}, ` +
      `row-major; cells coloured by bank (32 banks of 4 bytes), lane numbers ` +
      `on the cells the instruction accesses, outlined where its bank serves ` +
      `more than one word</div>` +
      `<div class="exchange-pictures">${picture(x, 'stores', x.stores)}` +
      `${picture(x, 'loads', x.loads)}</div>${bankTable(x)}</section>`);
  return `<div id="exchanges"><h2>Exchange through ${tiles[0].memory === 'LDS' ? 'LDS' : 'shared memory'}</h2>` +
         sections.join('') + '</div>';
}

/// The exchange section's style sheet.
export const exchangeStyle = `
#exchanges { padding: 8px; border-top: 1px solid var(--vscode-panel-border); }
.exchange-pictures { display: flex; flex-wrap: wrap; gap: 16px; }
.exchange-picture { margin: 4px 0; }
.exchange-picture svg { max-width: 100%; height: auto; }
rect.xcell { stroke: rgba(0, 0, 0, 0.15); stroke-width: 0.5px; }
rect.xcell.accessed { stroke: black; stroke-width: 1px; }
rect.xcell.conflict { stroke: #c00000; stroke-width: 2px; }
.exchange-picture text { pointer-events: none; } /* hovering a lane number reads its cell */
table.banks { border-collapse: collapse; font-family: var(--vscode-editor-font-family); }
table.banks td, table.banks th { padding: 0 8px; text-align: left; }
.swatch { display: inline-block; width: 10px; height: 10px; margin-right: 4px; }
.bar { display: inline-block; height: 8px; background: var(--vscode-charts-blue, #3794ff); }
.bar.conflict { background: var(--vscode-charts-red, #f14c4c); }
`;
