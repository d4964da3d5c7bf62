-- e2e.lua - drives the tlc Neovim plugin in a headless Neovim against the
-- real tlc-lsp (run by run.sh; not a plugin file).
--
-- Part of the tlc project.
-- SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
--
-- Environment: TLC_LSP_CMD (server command, space separated), TLC_EXAMPLE
-- (file to open), TLC_PROBE (JSON written by
-- editors/common/test/lsp_probe.py for the same file and cursor),
-- TLC_GEN_LINE / TLC_GEN_COL (cursor for :TlcGenerated, 0-based),
-- TLC_FORCE_VIRTUAL_TEXT=1 (use the plugin's renderer on 0.10+ too).

local failures = 0
local function log(msg)
  io.stdout:write(msg .. '\n')
end
local function check(ok, what)
  if ok then
    log('PASS ' .. what)
  else
    failures = failures + 1
    log('FAIL ' .. what)
  end
end
local function finish()
  log(failures == 0 and 'nvim e2e: all checks passed' or ('nvim e2e: ' .. failures .. ' check(s) failed'))
  vim.cmd(failures == 0 and 'qall!' or 'cquit 1')
end

-- vim.notify calls are recorded (the plugin reports server errors there).
local notes = {}
vim.notify = function(msg, level)
  table.insert(notes, { msg = msg, level = level })
  log('notify: ' .. tostring(msg))
end

local function read_json(path)
  local f = assert(io.open(path, 'r'))
  local text = f:read('*a')
  f:close()
  if vim.json and vim.json.decode then
    return vim.json.decode(text)
  end
  return vim.fn.json_decode(text)
end

local env = vim.env
local probe = read_json(env.TLC_PROBE)
local cmd = {}
for arg in env.TLC_LSP_CMD:gmatch('%S+') do
  table.insert(cmd, arg)
end

local tlc = require('tlc')
tlc.setup({
  cmd = cmd,
  native_inlay_hints = env.TLC_FORCE_VIRTUAL_TEXT ~= '1',
})
log('neovim ' .. tostring(vim.version().major) .. '.' .. tostring(vim.version().minor)
    .. '.' .. tostring(vim.version().patch) .. ', server ' .. table.concat(cmd, ' '))

vim.cmd('edit ' .. vim.fn.fnameescape(env.TLC_EXAMPLE))
local src = vim.api.nvim_get_current_buf()

-- 1. The server attaches.
local attached = vim.wait(15000, function()
  return #require('tlc.compat').get_clients('tlc', src) > 0
end, 50)
check(attached, 'tlc-lsp attached to ' .. env.TLC_EXAMPLE)
if not attached then
  return finish()
end

-- A buffer that does not import tilelang gets no server.
vim.cmd('new')
vim.bo.filetype = 'python'
vim.api.nvim_buf_set_lines(0, 0, -1, false, { 'import os', 'print(os.sep)' })
vim.cmd('doautocmd FileType python')
vim.wait(300)
check(#require('tlc.compat').get_clients('tlc', vim.api.nvim_get_current_buf()) == 0,
      'no tlc-lsp for a Python buffer without `import tilelang`')
vim.cmd('bwipeout!')
vim.api.nvim_set_current_buf(src)

-- 2. Inlay hints are extmarks with virtual text on the hinted lines.
local function rendered()
  local rows = {}
  for _, ns in pairs(vim.api.nvim_get_namespaces()) do
    local marks = vim.api.nvim_buf_get_extmarks(src, ns, 0, -1, { details = true })
    for _, m in ipairs(marks) do
      local details = m[4] or {}
      local chunks = {}
      for _, chunk in ipairs(details.virt_text or {}) do
        table.insert(chunks, chunk[1])
      end
      if #chunks > 0 then
        rows[m[2]] = (rows[m[2]] or '') .. table.concat(chunks) .. ' | '
      end
    end
  end
  return rows
end

local expected_rows = 0
for _ in pairs(probe.hints) do
  expected_rows = expected_rows + 1
end
local rows = {}
local got_all = vim.wait(15000, function()
  rows = rendered()
  local n = 0
  for _ in pairs(rows) do
    n = n + 1
  end
  return n >= expected_rows and expected_rows > 0
end, 100)
check(got_all, 'hints rendered on ' .. expected_rows .. ' lines')

-- Every label the server gives for a line is shown on that line (the
-- probe is an independent client of the same server).
for line, labels in pairs(probe.hints) do
  local row = tonumber(line)
  for _, label in ipairs(labels) do
    local shown = rows[row] or ''
    check(shown:find(label, 1, true) ~= nil,
          string.format('line %d shows "%s" (rendered: %s)', row + 1, label, shown))
  end
end

-- Hand-written expectations on the example's source lines: scope, dtype and
-- shape where the statement is.
local function row_of(pattern)
  for i, text in ipairs(vim.api.nvim_buf_get_lines(src, 0, -1, false)) do
    if text:find(pattern, 1, true) then
      return i - 1
    end
  end
  return nil
end
local facts = {
  -- Symbolic [M, K], or the instance's numbers (argparse defaults: 4096).
  { 'A: T.Tensor((M, K), dtype)', { 'global', 'f16', '%[[M4][, 0-9K]*%]' } },
  -- Layouts for the default target sm_90a: 64-byte rows of A_shared get the
  -- 64B swizzle, 256-byte rows of B_shared two 128B panels (the wgmma
  -- operand's storage), C_local wgmma's.
  { 'A_shared = T.alloc_shared((block_M, block_K), dtype)', { 'shared', 'f16', '%[128, 32%]', 'swizzle 64B' } },
  { 'B_shared = T.alloc_shared((block_K, block_N), dtype)', { 'shared', 'f16', '%[32, 128%]', 'swizzle 128B, 2 panels' } },
  { 'C_local = T.alloc_fragment((block_M, block_N), accum_dtype)', { 'fragment', 'f32', '%[128, 128%]', 'wgmma%.C' } },
  -- 3 pipeline stages x (8 KiB + 8 KiB) of shared tiles; on sm_90a the
  -- kernel is warp-specialised: the program's 128 threads + a producer
  -- warpgroup.
  { 'with T.Kernel(', { 'grid', '128 %+ 128 producer threads', 'smem 48 KiB' } },
  { 'in T.Pipelined(', { '3 stages' } },
}
for _, fact in ipairs(facts) do
  local row = row_of(fact[1])
  local shown = row and rows[row] or ''
  for _, want in ipairs(fact[2]) do
    check(shown:find(want) ~= nil,
          string.format('hint after `%s` has %s (rendered: %s)', fact[1], want, shown))
  end
end
-- No hint on a line without a buffer (the T.gemm call).
check(rows[row_of('T.gemm(A_shared')] == nil, 'no hint on the T.gemm line')

-- 3. :TlcGenerated at the statement under the cursor.
local gen_line = tonumber(env.TLC_GEN_LINE)
local gen_col = tonumber(env.TLC_GEN_COL)
vim.api.nvim_win_set_cursor(0, { gen_line + 1, gen_col })
local wins_before = #vim.api.nvim_tabpage_list_wins(0)
notes = {}
vim.cmd('TlcGenerated')
if probe.generated ~= vim.NIL and probe.generated ~= nil then
  local gen_path = vim.uri_to_fname(probe.generated.uri)
  local opened = vim.wait(10000, function()
    return vim.fn.bufwinnr(vim.fn.bufnr(gen_path)) ~= -1
  end, 50)
  check(opened, ':TlcGenerated opened ' .. gen_path .. ' in a window')
  local gen_buf = vim.fn.bufnr(gen_path)
  local gen_win = vim.fn.win_getid(vim.fn.bufwinnr(gen_buf))
  check(#vim.api.nvim_tabpage_list_wins(0) == wins_before + 1, 'in a split')
  local want = probe.generated.range.start.line + 1
  local cursor = gen_win ~= 0 and vim.api.nvim_win_get_cursor(gen_win)[1] or -1
  check(cursor == want, string.format('generated window at the mapped line %d (cursor at %d)', want, cursor))
  local marks = vim.api.nvim_buf_get_extmarks(gen_buf, tlc.gen_ns, 0, -1, {})
  check(#marks > 0 and marks[1][2] == want - 1, 'mapped range highlighted')
  check(vim.bo[gen_buf].modifiable == false, 'generated buffer is read-only')
  check(vim.api.nvim_get_current_buf() == src, 'focus stays in the DSL window')
  -- The view follows the cursor: one DSL line up is three stub lines up
  -- (stub back end only; a real back end maps lines its own way).
  if env.TLC_STUB == '1' then
    vim.api.nvim_win_set_cursor(0, { gen_line, gen_col })
    vim.api.nvim_exec_autocmds('CursorMoved', { buffer = src })
    local followed = vim.wait(5000, function()
      return vim.api.nvim_win_get_cursor(gen_win)[1] == want - 3
    end, 50)
    check(followed, string.format('generated window followed the cursor to line %d (at %d)', want - 3,
                                  vim.api.nvim_win_get_cursor(gen_win)[1]))
  end
  -- 4. :TlcOriginal jumps back.
  if probe.original ~= vim.NIL and probe.original ~= nil then
    vim.api.nvim_set_current_win(gen_win)
    vim.api.nvim_win_set_cursor(gen_win, { want, 0 })
    vim.cmd('TlcOriginal')
    local back = vim.wait(10000, function()
      return vim.api.nvim_get_current_buf() == src
    end, 50)
    check(back, ':TlcOriginal returned to the DSL buffer')
    local row = vim.api.nvim_win_get_cursor(0)[1]
    check(row == probe.original.range.start.line + 1,
          string.format(':TlcOriginal at line %d (want %d)', row, probe.original.range.start.line + 1))
  else
    log('SKIP :TlcOriginal (the server maps no generated line back: '
        .. tostring(probe.originalError) .. ')')
  end
else
  -- No generated source from this server yet: the command must surface the
  -- server's own message and open nothing.
  local want = 'tlc: ' .. probe.generatedError
  local got = vim.wait(10000, function()
    for _, n in ipairs(notes) do
      if n.msg == want then
        return true
      end
    end
    return false
  end, 50)
  check(got, ':TlcGenerated reports the server error "' .. want .. '"')
  check(#vim.api.nvim_tabpage_list_wins(0) == wins_before, ':TlcGenerated opened no window')
  check(tlc.last_error == probe.generatedError, 'last_error records the server message')
end

-- 5. :TlcIR: the Tile IR (generatedSource with target "tile") at the
-- mapped line, or the server's error.
notes = {}
local src_win = vim.fn.win_getid(vim.fn.bufwinnr(src))
vim.api.nvim_set_current_win(src_win)
vim.api.nvim_win_set_cursor(src_win, { gen_line + 1, gen_col })
vim.cmd('TlcIR')
if probe.tile ~= vim.NIL and probe.tile ~= nil then
  local ir_path = vim.uri_to_fname(probe.tile.uri)
  local opened = vim.wait(10000, function()
    return vim.fn.bufwinnr(vim.fn.bufnr(ir_path)) ~= -1
  end, 50)
  check(opened, ':TlcIR opened ' .. ir_path)
  local ir_win = vim.fn.win_getid(vim.fn.bufwinnr(vim.fn.bufnr(ir_path)))
  local want = probe.tile.range.start.line + 1
  local cursor = ir_win ~= 0 and vim.api.nvim_win_get_cursor(ir_win)[1] or -1
  check(cursor == want, string.format(':TlcIR at the mapped line %d (cursor at %d)', want, cursor))
else
  local want = 'tlc: ' .. tostring(probe.tileError)
  check(vim.wait(10000, function()
    for _, n in ipairs(notes) do
      if n.msg == want then
        return true
      end
    end
    return false
  end, 50), ':TlcIR reports the server error "' .. want .. '"')
end

-- 6. :TlcLayout: the accumulator's thread map as text in a split. The
-- oracle is the PTX ISA's mma/wgmma accumulator fragment: element (i, j)
-- is on lane 4 * (i % 8) + (j % 8) / 2 of its warp.
vim.api.nvim_set_current_win(src_win)
vim.o.columns = 240 -- a wide screen: the split shows 30 columns or so
local c_row = row_of('C_local = T.alloc_fragment')
vim.api.nvim_win_set_cursor(src_win, { c_row + 1, 10 })
tlc.last_layout = nil
vim.cmd('TlcLayout')
check(vim.wait(15000, function()
  return tlc.last_layout ~= nil
end, 50), ':TlcLayout answered')
local layout_buf = vim.fn.bufnr('tlc://layout')
local lines = layout_buf > 0 and vim.api.nvim_buf_get_lines(layout_buf, 0, -1, false) or {}
check(vim.fn.bufwinnr(layout_buf) ~= -1, ':TlcLayout shows the map in a split')
check((lines[1] or ''):find('C_local — fragment 128×128 float32', 1, true) ~= nil,
      'the map is C_local\'s (' .. tostring(lines[1]) .. ')')
local lanes_ok, shown_cols = true, 0
for r = 0, 15 do
  local line = lines[5 + r] or ''
  local bar = line:find('|', 1, true)
  local j = 0
  for v in line:sub((bar or 0) + 1):gmatch('%d+') do
    if tonumber(v) % 32 ~= 4 * (r % 8) + math.floor((j % 8) / 2) then
      lanes_ok = false
    end
    j = j + 1
  end
  shown_cols = j
  if not bar or tonumber(line:match('^%s*(%d+)')) ~= r then
    lanes_ok = false
  end
end
check(lanes_ok and shown_cols > 8, 'rows 0-15 show the accumulator lanes (' .. shown_cols .. ' columns)')
local last = lines[#lines] or ''
check(last:find('(showing 64 of 128 rows, ' .. shown_cols .. ' of 128 columns)', 1, true) ~= nil,
      'the map is clipped to the split (' .. last .. ')')
-- The code lens command names a shared buffer: its banks.
local a_row = row_of('A_shared = T.alloc_shared')
tlc.last_layout = nil
vim.lsp.commands['tilelang.showLayout']({
  arguments = { vim.uri_from_bufnr(src), tostring(a_row), '20', 'A_shared' },
})
check(vim.wait(15000, function()
  return tlc.last_layout ~= nil
end, 50), 'the Show layout lens answered')
lines = vim.api.nvim_buf_get_lines(layout_buf, 0, -1, false)
check((lines[1] or ''):find('A_shared — shared 128×32 float16', 1, true) ~= nil
      and (lines[2] or ''):find('bank', 1, true) ~= nil,
      'the lens shows A_shared\'s banks (' .. tostring(lines[1]) .. ')')

-- 7. A fragment exchange's tiles below the map (editors/common/test/
-- exchange.py: C_local, 64x64 float32, goes through shared memory at byte
-- 8192). Oracles: the bank of cell (i, j) is (8192 / 4 + 64 i + j) mod 32;
-- an instruction's degree is the most distinct cells its lanes access in
-- one bank; the worst store writes the accumulator, so lane l is at a cell
-- with 4 (i % 8) + (j % 8) / 2 = l (PTX ISA); the lanes are the probe's.
vim.api.nvim_set_current_win(src_win)
vim.cmd('edit ' .. vim.fn.fnameescape(env.TLC_EXCHANGE))
local xsrc = vim.api.nvim_get_current_buf()
check(vim.wait(15000, function()
  return #require('tlc.compat').get_clients('tlc', xsrc) > 0
end, 50), 'tlc-lsp attached to ' .. env.TLC_EXCHANGE)
local xrow
for i, text in ipairs(vim.api.nvim_buf_get_lines(xsrc, 0, -1, false)) do
  if text:find('C_local = T.alloc_fragment', 1, true) then
    xrow = i
  end
end
vim.api.nvim_win_set_cursor(0, { xrow, 14 })
local want_x = probe.exchange ~= vim.NIL and probe.exchange and probe.exchange[1]
check(want_x ~= nil and want_x ~= false, 'the probe got an exchange for C_local')
-- The first answers may come before the analysis: ask until it has one.
local xlines, got_x = {}, false
for _ = 1, 10 do
  tlc.last_layout = nil
  vim.cmd('TlcLayout')
  vim.wait(5000, function()
    return tlc.last_layout ~= nil
  end, 50)
  xlines = vim.api.nvim_buf_get_lines(layout_buf, 0, -1, false)
  local x = tlc.last_layout and tlc.last_layout.exchanges
  got_x = type(x) == 'table' and #x > 0
  if got_x then
    break
  end
  vim.wait(500)
end
check(got_x, ':TlcLayout on C_local answered with an exchange')
local function line_index(text, from)
  for i = from or 1, #xlines do
    if xlines[i]:find(text, 1, true) then
      return i
    end
  end
  return nil
end
check((xlines[1] or ''):find('C_local — fragment 64×64 float32', 1, true) ~= nil,
      'the map is C_local\'s (' .. tostring(xlines[1]) .. ')')
check(line_index('Exchange through shared memory') ~= nil and want_x and line_index(want_x.label) ~= nil,
      'the exchange section is titled with the server\'s label')
check(line_index('line 29: 64×64 tile of 4-byte elements in shared memory at byte 8192') ~= nil,
      'the tile: 64×64 float32 at byte 8192, at the transposed read (line 29)')
local bank_of = function(i, j)
  return (8192 / 4 + 64 * i + j) % 32
end
-- The bank highlight of the cell text ending at byte `col` of line `row`.
local function cell_group(row, col)
  local marks = vim.api.nvim_buf_get_extmarks(layout_buf, tlc.layout_ns, { row, 0 }, { row, -1 },
                                              { details = true })
  for _, m in ipairs(marks) do
    local d = m[4] or {}
    if m[3] < col and (d.end_col or 0) >= col and (d.hl_group or ''):find('^TlcLayoutBank') then
      return d.hl_group
    end
  end
  return nil
end
for _, what in ipairs({ 'store', 'load' }) do
  local want = want_x and want_x[what .. 's'] or { lanes = {}, degree = -1 }
  local head = line_index('worst ' .. what .. ' instruction: ')
  check(head ~= nil, what .. ': a picture of the worst instruction')
  head = head or #xlines
  -- Every lane's cell and bank, as listed.
  local lanes, per_bank = {}, {}
  local at = head
  while at <= #xlines and not xlines[at]:find('^lanes') do
    at = at + 1
  end
  while at <= #xlines and xlines[at] ~= '' do
    for l, i, j, b in xlines[at]:gmatch('(%d+): %((%d+), (%d+)%) bank (%d+)') do
      lanes[tonumber(l)] = { i = tonumber(i), j = tonumber(j), bank = tonumber(b) }
    end
    at = at + 1
  end
  local listed, banks_ok, probe_ok, formula_ok = 0, true, true, true
  for l, c in pairs(lanes) do
    listed = listed + 1
    banks_ok = banks_ok and c.bank == bank_of(c.i, c.j)
    probe_ok = probe_ok and want.lanes[l + 1] == c.i * 64 + c.j
    if what == 'store' then
      formula_ok = formula_ok and 4 * (c.i % 8) + math.floor((c.j % 8) / 2) == l
    end
    per_bank[c.bank] = (per_bank[c.bank] or 0) + 1
  end
  local degree = 0
  for _, n in pairs(per_bank) do
    degree = math.max(degree, n)
  end
  check(listed == 32 and probe_ok, what .. ': 32 lanes listed, at the probe\'s cells (' .. listed .. ')')
  check(banks_ok, what .. ': each lane\'s bank is (8192 / 4 + 64 i + j) mod 32')
  if what == 'store' then
    check(formula_ok, 'store: lane l writes a cell with 4 (i % 8) + (j % 8) / 2 = l')
  end
  check(degree == want.degree and xlines[head]:find(degree .. '-way bank conflict', 1, true) ~= nil,
        string.format('%s: %d-way from the lanes\' banks, as the caption says (%s)', what, degree, xlines[head]))
  -- The grid: lane numbers on the accessed cells (! where the bank serves
  -- more than one word), every cell in its bank's colour.
  local grid_ok, colour_ok, cells = true, true, 0
  for r = 0, 7 do
    local line = xlines[head + 4 + r] or ''
    local bar = line:find('|', 1, true)
    check(bar ~= nil and tonumber(line:match('^%s*(%d+)')) == r, what .. ': grid row ' .. r)
    local j = 0
    for s, text, e in line:sub((bar or 0) + 1):gmatch('()(%S+)()') do
      local lane
      for l, c in pairs(lanes) do
        if c.i == r and c.j == j then
          lane = l
        end
      end
      local want_text = lane and (lane .. ((per_bank[bank_of(r, j)] or 0) > 1 and '!' or '')) or '.'
      grid_ok = grid_ok and text == want_text
      colour_ok = colour_ok and cell_group(head + 3 + r, bar + e - 1) == 'TlcLayoutBank' .. bank_of(r, j)
      cells = cells + 1
      j = j + 1
    end
  end
  check(grid_ok and cells >= 8 * 16, what .. ': rows 0-7 show each lane at its cell, "." elsewhere')
  check(colour_ok, what .. ': every cell is highlighted in its bank\'s colour')
end
-- The table: words per bank of both instructions, the probe's.
local tab = line_index('bank | store words')
local table_ok = tab ~= nil
for b = 0, 31 do
  local s, l = (xlines[(tab or 0) + 1 + b] or ''):match('^%s*' .. b .. ' |%s*(%d+)[ #]*|%s*(%d+)')
  table_ok = table_ok and want_x and tonumber(s) == want_x.stores.wordsPerBank[b + 1]
    and tonumber(l) == want_x.loads.wordsPerBank[b + 1]
end
check(table_ok, 'the bank table has the store and load words of each of the 32 banks')

notes = {}
vim.api.nvim_set_current_win(src_win)
vim.api.nvim_set_current_buf(src)
vim.cmd('TlcInstance')
local inst_done = vim.wait(10000, function()
  return #notes > 0
end, 50)
check(inst_done, ':TlcInstance answered (' .. (notes[1] and notes[1].msg or '?') .. ')')

finish()
