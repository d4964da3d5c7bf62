// e2e.mjs - drives code-server (VS Code in the browser) with Chromium to test
// the installed tlc extension against a real tlc-lsp (run by run.sh).
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Environment: TLC_URL (code-server URL with ?folder=), TLC_FILE (file name
// to open in that folder), TLC_PROBE (lsp_probe.py's JSON for that file and
// the cursor TLC_GEN_LINE/TLC_GEN_COL, 0-based), CHROMIUM (browser binary),
// TLC_SCREENSHOT (where to save the editor screenshot), TLC_CASE (name).

import { chromium } from 'playwright-core';
import fs from 'node:fs';

const env = process.env;
const probe = JSON.parse(fs.readFileSync(env.TLC_PROBE, 'utf8'));
const genLine = Number(env.TLC_GEN_LINE);
const caseName = env.TLC_CASE ?? 'tlc-lsp';
let failures = 0;

function check(ok, what) {
  console.log(`${ok ? 'PASS' : 'FAIL'} ${what}`);
  if (!ok)
    failures++;
}

/** Polls `fn` until it returns a truthy value or `ms` pass. */
async function until(fn, ms = 20000, step = 250) {
  const end = Date.now() + ms;
  let value;
  while (Date.now() < end) {
    try {
      value = await fn();
      if (value)
        return value;
    } catch {
      // The page is still changing; try again.
    }
    await new Promise((r) => setTimeout(r, step));
  }
  return value;
}

const clean = (s) => (s ?? '').replace(/\u00a0/g, ' ');

const browser = await chromium.launch({
  executablePath: env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
const page = await browser.newPage({ viewport: { width: 1500, height: 900 } });
page.on('pageerror', (e) => console.log(`page error: ${e.message}`));

async function runCommand(title) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${title}`);
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
  await row.waitFor({ state: 'visible', timeout: 10000 });
  await page.waitForTimeout(200);
  await input.press('Enter');
}

async function goToLine(line /* 1-based */) {
  await page.keyboard.press('Control+G');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`:${line}`);
  await page.waitForTimeout(200);
  await input.press('Enter');
}

try {
  await page.goto(env.TLC_URL, { waitUntil: 'domcontentloaded' });
  await page.locator('.monaco-workbench').waitFor({ timeout: 60000 });
  await page.waitForTimeout(2000);

  // Open the example through Quick Open.
  await page.keyboard.press('Control+P');
  const quick = page.locator('.quick-input-widget input');
  await quick.waitFor({ state: 'visible' });
  await quick.fill(env.TLC_FILE);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: env.TLC_FILE })
      .first().waitFor({ timeout: 20000 });
  await quick.press('Enter');
  const editor = page.locator('.editor-group-container').first()
      .locator('.monaco-editor').first();
  await editor.waitFor({ timeout: 20000 });
  await page.keyboard.press('Control+1');

  // Scroll so the kernel is on screen (VS Code renders visible lines only).
  const hintLines = Object.keys(probe.hints).map(Number).sort((a, b) => a - b);
  if (hintLines.length)
    await goToLine(hintLines[0] + 1);

  // 1. Status bar: server state and target.
  const status = page.locator('.statusbar-item', { hasText: 'tlc' }).first();
  const statusText = await until(async () => {
    const t = clean(await status.getAttribute('aria-label'));
    return t.includes('cuda:sm_90a') && t.includes('running') ? t : '';
  }, 30000);
  check(Boolean(statusText), `status bar shows the running server and the target`);
  console.log(`status bar: ${clean(await status.getAttribute('aria-label')).split('\n')[0]}`);

  // 2. Inlay hints in the editor DOM: every label the server gives.
  const labels = Object.values(probe.hints).flat();
  const viewText = await until(async () => {
    const text = clean(await editor.locator('.view-lines').innerText());
    return labels.every((l) => text.includes(l)) ? text : '';
  }, 45000);
  for (const label of labels)
    check(Boolean(viewText) && viewText.includes(label), `hint "${label}" is in the editor DOM`);
  if (!viewText)
    console.log(clean(await editor.locator('.view-lines').innerText()));
  // Hand-written facts: scope, dtype and shape of the example's buffers.
  for (const [what, re] of [
    ['A_shared: shared f16[128, 32], 64B swizzle (sm_90a)', /shared f16\[128, 32\] · swizzle 64B/],
    ['C_local: fragment f32[128, 128], wgmma accumulator', /fragment f32\[128, 128\] · wgmma\.C/],
    ['A: global f16 tensor', /global f16\[[M4][, 0-9K]*\]/],
    ['T.Kernel: 128 threads + a 128-thread producer warpgroup (warp-specialised on sm_90a), 3 stages x 16 KiB of shared memory',
     /128 \+ 128 producer threads · smem 48 KiB/],
    ['T.Pipelined: 3 stages', /3 stages/],
  ])
    check(re.test(viewText ?? ''), `hint ${what}`);
  // The hint sits on the right line: the view line of A_shared's statement.
  const aLine = editor.locator('.view-line', { hasText: 'A_shared = T.alloc_shared' });
  check(clean(await aLine.innerText()).includes('shared f16[128, 32]'),
        'the A_shared hint is on the A_shared line');

  if (env.TLC_SCREENSHOT) {
    await page.keyboard.press('Control+B'); // Hide the side bar.
    await page.waitForTimeout(500);
    await page.screenshot({ path: env.TLC_SCREENSHOT });
    console.log(`screenshot: ${env.TLC_SCREENSHOT}`);
  }

  // 3. Show the generated source for the T.gemm statement.
  await goToLine(genLine + 1);
  await runCommand('TileLang: Show Generated CUDA/HIP');
  if (probe.generated) {
    const name = decodeURIComponent(probe.generated.uri.split('/').pop());
    const group = page.locator('.editor-group-container', {
      has: page.locator('.tab', { hasText: name }),
    }).first();
    const opened = await until(async () => (await group.count()) > 0, 20000);
    check(Boolean(opened), `generated document ${name} opened`);
    const groups = await page.locator('.editor-group-container').count();
    check(groups >= 2, `beside the kernel (${groups} editor groups)`);
    const want = probe.generated.range.start.line + 1;
    const active = await until(async () => {
      const t = await group.locator('.line-numbers.active-line-number').first().innerText();
      return Number(t) === want ? t : '';
    }, 10000);
    check(Boolean(active), `generated document at the mapped line ${want} (cursor line ${active})`);
    const mapped = group.locator('.view-line', { hasText: `dsl line ${genLine + 1}:` });
    if (caseName === 'stub-backend')
      check((await mapped.count()) === 1, `mapped line ${want} visible: dsl line ${genLine + 1}`);
    const readonly = await group.locator('.monaco-editor').first().getAttribute('class');
    check(/read-only|readonly/.test(readonly ?? '') ||
          (await group.locator('textarea[aria-readonly="true"], textarea[readonly]').count()) > 0,
          'generated document is read-only');
    if (env.TLC_SCREENSHOT_GEN) {
      await page.screenshot({ path: env.TLC_SCREENSHOT_GEN });
      console.log(`screenshot: ${env.TLC_SCREENSHOT_GEN}`);
    }
    // 4. Following the cursor: move to the T.copy line above.
    await page.keyboard.press('Control+1');
    await goToLine(genLine);
    const wantFollow = probe.generated.range.start.line + 1 - 3;
    if (caseName === 'stub-backend') {
      const followed = await until(async () => {
        const t = await group.locator('.line-numbers.active-line-number').first().innerText();
        return Number(t) === wantFollow ? t : '';
      }, 10000);
      check(Boolean(followed), `view followed the cursor to line ${wantFollow}`);
    }
    // 5. Jump back from the generated document.
    if (probe.original) {
      await page.keyboard.press('Control+2');
      await goToLine(probe.generated.range.start.line + 1);
      await runCommand('TileLang: Go to TileLang Source');
      const wantBack = probe.original.range.start.line + 1;
      const back = await until(async () => {
        const t = clean(await page.locator('.statusbar-item', { hasText: /Ln \d+/ }).first().innerText());
        const m = /Ln (\d+)/.exec(t);
        // The window title names the active editor.
        const title = await page.title();
        return m && Number(m[1]) === wantBack && title.startsWith(env.TLC_FILE) ? `${t}, ${title}` : '';
      }, 10000);
      check(Boolean(back), `Go to TileLang Source returned to ${env.TLC_FILE} line ${wantBack} (${back})`);
      if (!back) {
        console.log(`status: ${clean(await page.locator('.statusbar-item', { hasText: /Ln \d+/ }).first().innerText())}`);
        console.log(`toasts: ${clean(await page.locator('.notifications-toasts').innerText())}`);
        await page.screenshot({ path: `${env.TLC_WORK}/back.png` });
      }
    }
  } else {
    const want = `tlc: ${probe.generatedError}`;
    const toast = await until(async () => {
      const t = clean(await page.locator('.notifications-toasts').innerText());
      return t.includes(want) ? t : '';
    }, 20000);
    check(Boolean(toast), `Show Generated reports the server error "${want}"`);
    const groups = await page.locator('.editor-group-container').count();
    check(groups === 1, `no generated document opened (${groups} editor group)`);
  }

  // 6. Show Tile IR: generatedSource with target "tile" for the cursor's
  // statement, at the mapped line (or the server's error).
  await page.keyboard.press('Control+1');
  await goToLine(genLine + 1);
  await runCommand('TileLang: Show Tile IR');
  if (probe.tile) {
    const name = decodeURIComponent(probe.tile.uri.split('/').pop());
    const group = page.locator('.editor-group-container', {
      has: page.locator('.tab.active', { hasText: name }),
    }).first();
    const want = probe.tile.range.start.line + 1;
    const at = await until(async () => {
      const t = await group.locator('.line-numbers.active-line-number').first().innerText();
      return Number(t) === want ? t : '';
    }, 15000);
    check(Boolean(at), `Show Tile IR opened ${name} at the mapped line ${want} (${at})`);
    if (env.TLC_SCREENSHOT_IR) {
      await page.screenshot({ path: env.TLC_SCREENSHOT_IR });
      console.log(`screenshot: ${env.TLC_SCREENSHOT_IR}`);
    }
  } else {
    const want = `tlc: ${probe.tileError}`;
    const toast = await until(async () => {
      const t = clean(await page.locator('.notifications-toasts').innerText());
      return t.includes(want) ? t : '';
    }, 15000);
    check(Boolean(toast), `Show Tile IR reports the server error "${want}"`);
  }

  // 7. Show Layout: the accumulator's picture in a webview beside the
  // kernel. The oracle for the cells is the PTX ISA's mma/wgmma
  // accumulator fragment: element (i, j) is on lane 4 (i % 8) + (j % 8) / 2.
  const source = fs.readFileSync(`${env.TLC_WORK}/ws/${env.TLC_FILE}`, 'utf8').split('\n');
  const lineOf = (text) => source.findIndex((l) => l.includes(text)) + 1;
  const layoutFrame = async (name) => {
    for (const f of page.frames()) {
      try {
        const got = await f.evaluate(() => document.body?.dataset?.name ?? '');
        if (got && (!name || got === name))
          return f;
      } catch { /* detached or cross-origin while loading */ }
    }
    return undefined;
  };
  await page.keyboard.press('Control+1');
  await goToLine(lineOf('C_local = T.alloc_fragment'));
  await runCommand('TileLang: Show Layout');
  let frame = await until(() => layoutFrame('C_local'), 30000);
  check(Boolean(frame), 'Show Layout opened a webview with C_local');
  if (frame) {
    const title = await frame.locator('#title').innerText();
    check(title.includes('C_local — fragment 128×128 float32'), `layout title: ${title}`);
    const cells = await frame.locator('rect.cell').count();
    check(cells === 128 * 128, `the picture has ${cells} cells (128 × 128)`);
    const groups = await page.locator('.editor-group-container').count();
    check(groups >= 2, `the layout view is beside the kernel (${groups} editor groups)`);
    await frame.locator('rect.cell[data-i="9"][data-j="5"]').hover();
    const readout = await until(async () => {
      const t = await frame.locator('#readout').innerText();
      return t.includes('(9, 5)') ? t : '';
    }, 10000);
    const m = /\(thread, register\) = \((\d+), (\d+)\)/.exec(readout ?? '');
    check(Boolean(m) && Number(m[1]) % 32 === 4 * (9 % 8) + Math.floor((5 % 8) / 2),
          `hovering (9, 5) shows its thread and register: ${readout}`);
    if (env.TLC_SCREENSHOT_LAYOUT) {
      await page.screenshot({ path: env.TLC_SCREENSHOT_LAYOUT });
      console.log(`screenshot: ${env.TLC_SCREENSHOT_LAYOUT}`);
    }
    // 8. It follows the cursor: onto A_shared's allocation.
    await page.keyboard.press('Control+1');
    await goToLine(lineOf('A_shared = T.alloc_shared'));
    frame = await until(() => layoutFrame('A_shared'), 20000);
    check(Boolean(frame), 'the layout view followed the cursor to A_shared');
    if (frame) {
      const kind = await frame.evaluate(() => document.body.dataset.kind);
      const banks = await frame.locator('rect.cell[data-bank]').count();
      check(kind === 'shared' && banks === 128 * 32,
            `A_shared is drawn by bank (${kind}, ${banks} cells)`);
    }
  }

  // 9. A fragment exchange's tile (editors/common/test/exchange.py: C_local,
  // 64x64 float32, goes through shared memory at byte 8192). Oracles: the
  // bank of cell (i, j) is (8192 / 4 + 64 i + j) mod 32; an instruction's
  // degree is the most distinct cells its lanes access in one bank; the
  // worst store writes the accumulator, so lane l is at a cell with
  // 4 (i % 8) + (j % 8) / 2 = l (PTX ISA); the lanes and words per bank
  // are the probe's (an independent client of the same server).
  if (env.TLC_EXCHANGE_FILE) {
    const want = probe.exchange?.[0];
    check(Boolean(want), 'the probe got an exchange for C_local');
    await page.keyboard.press('Control+1');
    await page.keyboard.press('Control+P');
    const open = page.locator('.quick-input-widget input');
    await open.waitFor({ state: 'visible' });
    await open.fill(env.TLC_EXCHANGE_FILE);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: env.TLC_EXCHANGE_FILE })
        .first().waitFor({ timeout: 20000 });
    await open.press('Enter');
    await until(async () => (await page.title()).startsWith(env.TLC_EXCHANGE_FILE), 20000);
    const xsource = fs.readFileSync(`${env.TLC_WORK}/ws/${env.TLC_EXCHANGE_FILE}`, 'utf8').split('\n');
    await goToLine(xsource.findIndex((l) => l.includes('C_local = T.alloc_fragment')) + 1);
    // The first answer may come before the analysis: ask until it has the
    // exchange section.
    let xframe;
    for (let attempt = 0; attempt < 6 && !xframe; ++attempt) {
      await runCommand('TileLang: Show Layout');
      xframe = await until(async () => {
        const f = await layoutFrame('C_local');
        return f && (await f.locator('#exchanges').count()) > 0 ? f : undefined;
      }, 10000);
      await page.keyboard.press('Control+1');
    }
    check(Boolean(xframe), 'Show Layout on C_local shows the exchange tile');
    if (xframe && want) {
      const title = await xframe.locator('#exchanges section.exchange h3').innerText();
      check(title === want.label, `the exchange is titled with the server's label: ${title}`);
      const where = await xframe.locator('.exchange-where').innerText();
      check(where.includes('64×64 tile of 4-byte elements in shared memory at byte 8192'),
            `the tile: 64×64 float32 at byte 8192 (${where.slice(0, 80)})`);
      const bankOf = (i, j) => (8192 / 4 + 64 * i + j) % 32;
      for (const what of ['stores', 'loads']) {
        const fig = xframe.locator(`figure.exchange-picture[data-access="${what}"]`);
        const cells = await fig.locator('rect.xcell').evaluateAll((rs) => rs.map((r) => ({
          i: Number(r.dataset.i), j: Number(r.dataset.j), bank: Number(r.dataset.bank),
          lanes: r.dataset.lanes, conflict: r.classList.contains('conflict'),
        })));
        check(cells.length === 64 * 64, `${what}: 4096 cells drawn (${cells.length})`);
        check(cells.every((c) => c.bank === bankOf(c.i, c.j)),
              `${what}: every cell's bank is (8192 / 4 + 64 i + j) mod 32`);
        const accessed = cells.filter((c) => c.lanes !== undefined);
        check(accessed.length === 32 &&
              accessed.every((c) => want[what].lanes[Number(c.lanes)] === c.i * 64 + c.j),
              `${what}: 32 cells carry a lane, at the probe's cells (${accessed.length})`);
        const perBank = new Map();
        for (const c of accessed)
          perBank.set(c.bank, (perBank.get(c.bank) ?? 0) + 1);
        const degree = Math.max(...perBank.values());
        const caption = await fig.locator('figcaption').innerText();
        check(degree === want[what].degree && caption.includes(`${degree}-way bank conflict`) &&
              Number(await fig.getAttribute('data-degree')) === degree,
              `${what}: ${degree}-way from the lanes' banks, as the caption says (${caption})`);
        check(accessed.every((c) => c.conflict === (perBank.get(c.bank) > 1)),
              `${what}: the cells of banks serving more than one word are outlined`);
        if (what === 'stores')
          check(accessed.every((c) => 4 * (c.i % 8) + Math.floor((c.j % 8) / 2) === Number(c.lanes)),
                'stores: lane l writes a cell with 4 (i % 8) + (j % 8) / 2 = l');
      }
      const rows = await xframe.locator('table.banks tbody tr').evaluateAll((rs) => rs.map((r) => [
        Number(r.dataset.bank), Number(r.dataset.stores), Number(r.dataset.loads)]));
      check(rows.length === 32 && rows.every(([b, s, l]) =>
              s === want.stores.wordsPerBank[b] && l === want.loads.wordsPerBank[b]),
            'the bank table has the probe\'s store and load words of each of the 32 banks');
      // Hovering a stored cell names its bank and lane.
      const lane5 = want.stores.lanes[5];
      const [i5, j5] = [Math.floor(lane5 / 64), lane5 % 64];
      await xframe.locator(`figure[data-access="stores"] rect.xcell[data-i="${i5}"][data-j="${j5}"]`).hover();
      const readout = await until(async () => {
        const t = await xframe.locator('#readout').innerText();
        return t.includes(`(${i5}, ${j5})`) ? t : '';
      }, 10000);
      check((readout ?? '').includes(`bank ${bankOf(i5, j5)}`) && /stores of lane 5\b/.test(readout ?? ''),
            `hovering the store tile's (${i5}, ${j5}) shows its bank and lane 5: ${readout}`);
      if (env.TLC_SCREENSHOT_EXCHANGE) {
        await xframe.locator('#exchanges').scrollIntoViewIfNeeded();
        await page.screenshot({ path: env.TLC_SCREENSHOT_EXCHANGE });
        console.log(`screenshot: ${env.TLC_SCREENSHOT_EXCHANGE}`);
      }
    }
  }
} catch (e) {
  failures++;
  console.log(`FAIL exception: ${e.stack ?? e}`);
  try {
    await page.screenshot({ path: `${env.TLC_WORK ?? '/tmp'}/failure-${caseName}.png` });
  } catch { /* ignore */ }
} finally {
  await browser.close();
}
console.log(failures === 0 ? `vscode e2e (${caseName}): all checks passed`
                           : `vscode e2e (${caseName}): ${failures} check(s) failed`);
process.exit(failures === 0 ? 0 : 1);
