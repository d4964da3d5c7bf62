-- tlc/exchange.lua - The exchange tiles of a fragment as text (:TlcLayout).
--
-- Part of the tlc project.
-- SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
--
-- Where the generated code moves a fragment through shared memory (LDS on
-- HIP), the `tilelang/layout` answer carries `exchanges`: the row-major tile
-- the fragment is stored into, the bank of each cell, and the worst store
-- and load instruction (the tile element of each lane, the words each bank
-- serves, the conflict degree). VS Code draws them (src/exchangeTile.ts);
-- here they are text below the layout map: for each instruction a grid with
-- the lane number on the cells it accesses (`!` after it where the cell's
-- bank serves more than one word), every cell highlighted in its bank's
-- colour, then each lane's cell and bank, and a table of the words per
-- bank. Nothing is computed but the drawing.

local M = {}

--- Rows of a tile grid shown at most (the lane list names every lane); a
--- grid ends at its last accessed row.
M.max_rows = 32

--- The highlight group of bank `b` (0-31).
function M.bank_group(b)
  return 'TlcLayoutBank' .. b
end

--- An RGB colour for hue `h` (degrees), saturation `s`, lightness `l` (0-1).
local function hsl(h, s, l)
  local c = (1 - math.abs(2 * l - 1)) * s
  local x = c * (1 - math.abs((h / 60) % 2 - 1))
  local m = l - c / 2
  local r, g, b = 0, 0, 0
  if h < 60 then
    r, g = c, x
  elseif h < 120 then
    r, g = x, c
  elseif h < 180 then
    g, b = c, x
  elseif h < 240 then
    g, b = x, c
  elseif h < 300 then
    r, b = x, c
  else
    r, b = c, x
  end
  local function byte(v)
    return math.floor((v + m) * 255 + 0.5)
  end
  return string.format('#%02x%02x%02x', byte(r), byte(g), byte(b))
end

--- Defines the bank colours (the VS Code view's: 32 hues, lighter on odd
--- banks) and the conflict mark, unless the colour scheme has them.
function M.define_highlights()
  for b = 0, 31 do
    vim.api.nvim_set_hl(0, M.bank_group(b), {
      default = true,
      fg = '#000000',
      bg = hsl(b * 360 / 32, 0.55, b % 2 == 1 and 0.80 or 0.68),
    })
  end
  vim.api.nvim_set_hl(0, 'TlcLayoutConflict', { default = true, link = 'ErrorMsg' })
  vim.api.nvim_set_hl(0, 'TlcLayoutHeading', { default = true, link = 'Title' })
end

local function degree_text(degree)
  if degree == 1 then
    return 'conflict-free'
  elseif degree > 1 then
    return degree .. '-way bank conflict'
  end
  return 'degree unknown'
end

--- Appends `text` to `out.lines`, with `hls` ({ group, from, to } byte
--- columns) on it.
local function add(out, text, hls)
  table.insert(out.lines, text)
  for _, h in ipairs(hls or {}) do
    table.insert(out.highlights, { line = #out.lines - 1, group = h[1], from = h[2], to = h[3] })
  end
end

--- The grid of one instruction (`what`: 'stores' or 'loads').
local function picture(out, x, what, width)
  local a = x[what]
  local lane_at = {}
  local active, last_row = 0, 0
  for lane, e in ipairs(a.lanes) do
    if e >= 0 then
      active = active + 1
      last_row = math.max(last_row, math.floor(e / x.cols))
      lane_at[e] = lane_at[e] or {}
      table.insert(lane_at[e], lane - 1)
    end
  end
  local label = #tostring(math.max(x.rows - 1, 0))
  local cell = math.max(#tostring(#a.lanes - 1), #tostring(x.cols - 1)) + 1
  local fit = math.max(1, math.floor((width - label - 2) / (cell + 1)))
  local cols = math.min(x.cols, fit)
  -- Down to the last accessed row (at least 8 rows, at most max_rows).
  local rows = math.min(x.rows, M.max_rows, math.max(last_row + 1, 8))
  add(out, '')
  add(out, 'worst ' .. (what == 'stores' and 'store' or 'load') .. ' instruction: ' .. degree_text(a.degree),
      { { 'TlcLayoutHeading', 0, -1 } })
  add(out, 'lane at each cell it accesses (! where its bank serves more than one word), . elsewhere;'
      .. ' cells in their bank\'s colour')
  local header = string.rep(' ', label) .. ' |'
  for c = 0, cols - 1 do
    header = header .. string.format(' %' .. cell .. 'd', c)
  end
  add(out, header)
  add(out, string.rep('-', label) .. '-+' .. string.rep('-', cols * (cell + 1)))
  local shown = 0
  for i = 0, rows - 1 do
    local line = string.format('%' .. label .. 'd |', i)
    local hls = {}
    for j = 0, cols - 1 do
      local e = i * x.cols + j
      local bank = x.bank[e + 1]
      local lanes = lane_at[e]
      local text = '.'
      if lanes then
        shown = shown + #lanes
        text = tostring(lanes[1]) .. ((a.wordsPerBank[bank + 1] or 0) > 1 and '!' or '')
      end
      local from = #line + 1
      line = line .. ' ' .. string.rep(' ', cell - #text) .. text
      table.insert(hls, { M.bank_group(bank), from, #line })
      if lanes and (a.wordsPerBank[bank + 1] or 0) > 1 then
        table.insert(hls, { 'TlcLayoutConflict', #line - #text, #line })
      end
    end
    add(out, line, hls)
  end
  if rows < x.rows or cols < x.cols then
    add(out, string.format('(showing %d of %d rows, %d of %d columns; %d of %d lanes\' cells outside)',
                           rows, x.rows, cols, x.cols, active - shown, active))
  end
  -- Every lane: its cell and bank.
  local entries = {}
  for lane, e in ipairs(a.lanes) do
    if e >= 0 then
      table.insert(entries, string.format('%d: (%d, %d) bank %d', lane - 1, math.floor(e / x.cols),
                                          e % x.cols, x.bank[e + 1]))
    end
  end
  local line = 'lanes'
  for _, entry in ipairs(entries) do
    if #line + 3 + #entry > math.max(width, 40) and line ~= '' then
      add(out, line)
      line = ' '
    end
    line = line .. '  ' .. entry
  end
  add(out, line)
end

--- The exchange section of the layout view as { lines, highlights } (both
--- empty without exchanges). `width` is the window's.
function M.lines(exchanges, width)
  local out = { lines = {}, highlights = {} }
  if type(exchanges) ~= 'table' or #exchanges == 0 then
    return out
  end
  local memory = exchanges[1].memory == 'LDS' and 'LDS' or 'shared memory'
  add(out, '')
  add(out, 'Exchange through ' .. memory, { { 'TlcLayoutHeading', 0, -1 } })
  for _, x in ipairs(exchanges) do
    add(out, '')
    add(out, x.label, { { 'TlcLayoutHeading', 0, -1 } })
    add(out, string.format('line %d: %d×%d tile of %d-byte elements in %s at byte %d, row-major'
                           .. ' (32 banks of 4 bytes)', x.statement.start.line + 1, x.rows, x.cols,
                           x.elementBytes, x.memory == 'LDS' and 'LDS' or 'shared memory', x.offset))
    picture(out, x, 'stores', width)
    picture(out, x, 'loads', width)
    add(out, '')
    add(out, string.format('%-4s | %-35s | %s', 'bank', 'store words', 'load words'))
    for b = 0, 31 do
      local s = x.stores.wordsPerBank[b + 1] or 0
      local l = x.loads.wordsPerBank[b + 1] or 0
      local line = string.format('%4d | %2d %-32s | %2d %s', b, s, string.rep('#', math.min(s, 32)), l,
                                 string.rep('#', math.min(l, 32)))
      local hls = { { M.bank_group(b), 0, 4 } }
      if s > 1 then
        table.insert(hls, { 'TlcLayoutConflict', 7, 9 })
      end
      if l > 1 then
        table.insert(hls, { 'TlcLayoutConflict', 45, 47 })
      end
      add(out, line:gsub('%s+$', ''), hls)
    end
  end
  return out
end

return M
