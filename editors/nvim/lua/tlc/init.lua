-- tlc/init.lua - TileLang support in Neovim through tlc-lsp.
--
-- Part of the tlc project.
-- SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
--
-- require('tlc').setup{} starts tlc-lsp for Python buffers that import
-- tilelang, turns on inlay hints (native on 0.10+, virtual text before) and
-- adds :TlcGenerated, :TlcOriginal, :TlcInstance, :TlcIR and :TlcRestart.
-- No plugin dependencies; works on Neovim 0.7 and later.

local compat = require('tlc.compat')
local exchange = require('tlc.exchange')
local hints = require('tlc.hints')

local M = {}

M.defaults = {
  --- Command that starts the server.
  cmd = { 'tlc-lsp' },
  --- Files whose presence marks the project root.
  root_markers = { 'pyproject.toml', 'setup.py', 'setup.cfg', '.git' },
  --- The `tilelang` settings the server reads (workspace/configuration).
  settings = {
    tilelang = {
      target = 'cuda:sm_90a',
      instance = 0,
      semanticTokens = false,
      inlayHints = { buffers = true, layouts = true, launches = true, pipelines = true },
    },
  },
  --- Show inlay hints when the server attaches.
  inlay_hints = true,
  --- Use Neovim's own inlay hints when it has them (0.10+); false forces
  --- this plugin's end-of-line virtual text.
  native_inlay_hints = true,
  --- Keep the generated-source window at the code of the cursor's statement.
  follow_cursor = true,
  --- Called after attaching, with (client, bufnr).
  on_attach = nil,
}

M.config = vim.deepcopy(M.defaults)

M.gen_ns = vim.api.nvim_create_namespace('tlc_generated')
M.layout_ns = vim.api.nvim_create_namespace('tlc_layout')

local view = nil -- { source_buf, gen_buf, gen_win, uri, target }

--===----------------------------------------------------------------------===--
-- Helpers
--===----------------------------------------------------------------------===--

local function notify(msg, level)
  vim.notify('tlc: ' .. msg, level or vim.log.levels.INFO)
end

local function err(msg)
  M.last_error = msg
  notify(msg, vim.log.levels.ERROR)
end

--- True when `bufnr` is a Python buffer that imports tilelang.
function M.is_tilelang(bufnr)
  bufnr = bufnr or 0
  if vim.bo[bufnr].filetype ~= 'python' then
    return false
  end
  for _, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    if line:match('^%s*import%s+tilelang') or line:match('^%s*from%s+tilelang') then
      return true
    end
  end
  return false
end

local function find_root(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  local dir = name ~= '' and vim.fn.fnamemodify(name, ':p:h') or vim.fn.getcwd()
  for _, marker in ipairs(M.config.root_markers) do
    local found = vim.fn.findfile(marker, dir .. ';')
    if found == '' then
      found = vim.fn.finddir(marker, dir .. ';')
    end
    if found ~= '' then
      return vim.fn.fnamemodify(found, ':p:h:h')
    end
  end
  return dir
end

--- The tlc client of `bufnr` (or of any buffer when nil).
function M.client(bufnr)
  local clients = compat.get_clients('tlc', bufnr)
  if #clients == 0 and bufnr then
    clients = compat.get_clients('tlc')
  end
  return clients[1]
end

local function cursor_position(client, win)
  win = win or 0
  local buf = vim.api.nvim_win_get_buf(win)
  local pos = vim.api.nvim_win_get_cursor(win)
  local line = compat.line(buf, pos[1] - 1)
  return {
    line = pos[1] - 1,
    character = compat.char_of_col(line, pos[2], compat.encoding(client)),
  }
end

local function filetype_of(language, path)
  local map = { cuda = 'cuda', hip = 'cuda', cpp = 'cpp', ['c++'] = 'cpp', mlir = 'mlir', tile = 'mlir' }
  if map[language] then
    return map[language]
  end
  if path:match('%.cu$') or path:match('%.cuh$') then
    return 'cuda'
  end
  return nil
end

--===----------------------------------------------------------------------===--
-- The generated-source window
--===----------------------------------------------------------------------===--

local function find_win(buf)
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if vim.api.nvim_win_get_buf(win) == buf then
      return win
    end
  end
  return nil
end

--- Highlights `range` (LSP) of the generated buffer and puts the cursor on
--- its first line.
local function mark(buf, win, range)
  vim.api.nvim_buf_clear_namespace(buf, M.gen_ns, 0, -1)
  local count = vim.api.nvim_buf_line_count(buf)
  local first = math.min(range.start.line, count - 1)
  local last = math.min(math.max(range['end'].line, first), count - 1)
  if range['end'].character == 0 and range['end'].line > first then
    last = math.min(range['end'].line - 1, count - 1)
  end
  for row = first, last do
    vim.api.nvim_buf_add_highlight(buf, M.gen_ns, 'TlcGeneratedRange', row, 0, -1)
  end
  if win and vim.api.nvim_win_is_valid(win) then
    vim.api.nvim_win_set_cursor(win, { first + 1, 0 })
    vim.api.nvim_win_call(win, function()
      vim.cmd('normal! zz')
    end)
  end
end

--- Opens generated file `uri` in a split beside the source window (reusing
--- the view's window) at `range`; returns the window.
function M.open_generated(uri, range, language, source_buf)
  local path = vim.uri_to_fname(uri)
  local source_win = vim.api.nvim_get_current_win()
  local win = view and view.gen_win and vim.api.nvim_win_is_valid(view.gen_win) and view.gen_win or nil
  if win then
    vim.api.nvim_set_current_win(win)
    if vim.api.nvim_buf_get_name(0) ~= path then
      vim.cmd('edit ' .. vim.fn.fnameescape(path))
    else
      vim.cmd('silent! checktime')
    end
  else
    vim.cmd('vsplit ' .. vim.fn.fnameescape(path))
    win = vim.api.nvim_get_current_win()
  end
  local buf = vim.api.nvim_get_current_buf()
  vim.bo[buf].readonly = true
  vim.bo[buf].modifiable = false
  vim.bo[buf].swapfile = false
  vim.bo[buf].bufhidden = 'hide'
  local ft = filetype_of(language or '', path)
  if ft and vim.bo[buf].filetype ~= ft then
    vim.bo[buf].filetype = ft
  end
  vim.b[buf].tlc_generated = true
  vim.api.nvim_buf_create_user_command(buf, 'TlcOriginal', function()
    M.original()
  end, { desc = 'Jump to the TileLang statement that generated this line' })
  mark(buf, win, range)
  view = {
    source_buf = source_buf or (view and view.source_buf),
    gen_buf = buf,
    gen_win = win,
    uri = uri,
    target = view and view.target,
  }
  if vim.api.nvim_win_is_valid(source_win) and source_win ~= win then
    vim.api.nvim_set_current_win(source_win)
  end
  return win
end

--- Asks for the code generated from the cursor's statement of the current
--- buffer and shows it. `target` overrides the configured target.
function M.generated(target, opts)
  opts = opts or {}
  local bufnr = vim.api.nvim_get_current_buf()
  local client = M.client(bufnr)
  if not client then
    return err('tlc-lsp is not attached to this buffer')
  end
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    position = cursor_position(client),
  }
  if target and target ~= '' then
    params.target = target
  end
  compat.request(client, 'tilelang/generatedSource', params, function(e, result)
    if e then
      if not opts.silent then
        err(e.message or vim.inspect(e))
      end
      return
    end
    if not result or not result.uri then
      return err('tlc-lsp returned no generated source')
    end
    M.last_error = nil
    if not vim.api.nvim_buf_is_valid(bufnr) then
      return
    end
    local win = vim.api.nvim_get_current_win()
    if vim.api.nvim_win_get_buf(win) ~= bufnr then
      win = find_win(bufnr) or win
      vim.api.nvim_set_current_win(win)
    end
    M.open_generated(result.uri, result.range, result.language, bufnr)
    view.target = params.target
  end, bufnr)
end

--- Jumps from the generated file under the cursor back to the DSL.
function M.original()
  local client = M.client(view and view.source_buf or nil)
  if not client then
    return err('tlc-lsp is not running')
  end
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(0) },
    position = cursor_position(client),
  }
  compat.request(client, 'tilelang/originalSource', params, function(e, result)
    if e then
      return err(e.message or vim.inspect(e))
    end
    if not result or not result.uri then
      return err('no TileLang statement generated this line')
    end
    local path = vim.uri_to_fname(result.uri)
    local target_buf = vim.fn.bufnr(path)
    local win = target_buf ~= -1 and find_win(target_buf) or nil
    if win then
      vim.api.nvim_set_current_win(win)
    else
      vim.cmd('wincmd p')
      vim.cmd('edit ' .. vim.fn.fnameescape(path))
    end
    local buf = vim.api.nvim_get_current_buf()
    local row = math.min(result.range.start.line, vim.api.nvim_buf_line_count(buf) - 1)
    local line = compat.line(buf, row)
    local col = compat.col_of_char(line, result.range.start.character, compat.encoding(client))
    vim.api.nvim_win_set_cursor(0, { row + 1, col })
  end, view and view.source_buf or 0)
end

--===----------------------------------------------------------------------===--
-- Commands that go through code lenses (kernel arguments)
--===----------------------------------------------------------------------===--

--- Calls `fn(lenses)` with the server's code lenses of the current buffer
--- running `command`, the kernel nearest above the cursor first.
local function with_lenses(command, fn)
  local bufnr = vim.api.nvim_get_current_buf()
  local client = M.client(bufnr)
  if not client then
    return err('tlc-lsp is not attached to this buffer')
  end
  local row = vim.api.nvim_win_get_cursor(0)[1] - 1
  local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }
  compat.request(client, 'textDocument/codeLens', params, function(e, result)
    if e then
      return err(e.message or vim.inspect(e))
    end
    local lenses = {}
    for _, lens in ipairs(result or {}) do
      if lens.command and lens.command.command == command then
        table.insert(lenses, lens)
      end
    end
    local function score(lens)
      local line = lens.range.start.line
      return line <= row and (row - line) or (1e6 + line - row)
    end
    table.sort(lenses, function(a, b)
      return score(a) < score(b)
    end)
    fn(client, bufnr, lenses)
  end, bufnr)
end

local function execute(client, bufnr, command, arguments, on_result)
  compat.request(client, 'workspace/executeCommand', {
    command = command,
    arguments = arguments,
  }, function(e, result)
    if e then
      return err(e.message or vim.inspect(e))
    end
    if on_result then
      on_result(result)
    end
  end, bufnr)
end

--- Shows the Tile IR of the kernel at the cursor: generatedSource with
--- target "tile", at the cursor's statement, in the generated-source split.
function M.ir()
  M.generated('tile')
end

--- Picks the instance the hints show: `index` (a number) for the kernel at
--- the cursor, or a vim.ui.select over the server's instance lenses.
function M.instance(index)
  if index and index ~= '' then
    return with_lenses('tilelang.showTileIR', function(client, bufnr, lenses)
      if #lenses == 0 then
        return err('no kernel in this buffer')
      end
      local args = lenses[1].command.arguments
      execute(client, bufnr, 'tilelang.pickInstance', { args[1], args[2], tostring(index) }, function()
        hints.schedule(bufnr, 0)
      end)
    end)
  end
  with_lenses('tilelang.pickInstance', function(client, bufnr, lenses)
    if #lenses == 0 then
      return notify('every kernel in this buffer has a single instance')
    end
    vim.ui.select(lenses, {
      prompt = 'Kernel instance:',
      format_item = function(lens)
        return lens.command.title
      end,
    }, function(lens)
      if lens then
        execute(client, bufnr, 'tilelang.pickInstance', lens.command.arguments, function()
          hints.schedule(bufnr, 0)
        end)
      end
    end)
  end)
end

--===----------------------------------------------------------------------===--
-- Attaching
--===----------------------------------------------------------------------===--

local function follow(bufnr)
  if not M.config.follow_cursor or not view or view.source_buf ~= bufnr then
    return
  end
  if not (view.gen_win and vim.api.nvim_win_is_valid(view.gen_win)) then
    return
  end
  M.generated(view.target, { silent = true })
end

--- The layout map of `result` (a tilelang/layout answer) as text lines:
--- the title, then the thread (fragments) or bank (shared) of every cell,
--- with as many columns as fit in `width` and at most `max_rows` rows.
function M.layout_lines(result, width, max_rows)
  local frag = result.kind == 'fragment'
  local values = frag and result.cells.thread or result.cells.bank
  local rows, cols = result.rows, result.cols
  local widest = #tostring(math.max(cols - 1, 1))
  for _, v in ipairs(values) do
    widest = math.max(widest, #tostring(v))
  end
  local label = #tostring(math.max(rows - 1, 0))
  local fit = math.max(1, math.floor((width - label - 2) / (widest + 1)))
  local show_cols = math.min(cols, fit)
  local show_rows = math.min(rows, max_rows)
  local lines = {
    result.title,
    (frag and 'thread of each element' or 'bank (4-byte, of 32) of each element')
      .. ' · instance ' .. (result.instanceIndex + 1) .. '/' .. #result.instances
      .. ' · target ' .. result.target,
  }
  local header = string.rep(' ', label) .. ' |'
  for c = 0, show_cols - 1 do
    header = header .. string.format(' %' .. widest .. 'd', c)
  end
  table.insert(lines, header)
  table.insert(lines, string.rep('-', label) .. '-+' .. string.rep('-', show_cols * (widest + 1)))
  for r = 0, show_rows - 1 do
    local line = string.format('%' .. label .. 'd |', r)
    for c = 0, show_cols - 1 do
      line = line .. string.format(' %' .. widest .. 'd', values[r * cols + c + 1])
    end
    table.insert(lines, line)
  end
  if show_rows < rows or show_cols < cols then
    table.insert(lines, string.format('(showing %d of %d rows, %d of %d columns)',
                                      show_rows, rows, show_cols, cols))
  end
  return lines
end

local layout_buf = nil

--- Shows the layout map of the buffer at the cursor (or named `name`) as
--- text in a split.
function M.layout(name, position)
  local bufnr = vim.api.nvim_get_current_buf()
  local client = M.client(bufnr)
  if not client then
    return err('tlc-lsp is not attached to this buffer')
  end
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    position = position or cursor_position(client),
  }
  if name and name ~= '' then
    params.buffer = name
  end
  compat.request(client, 'tilelang/layout', params, function(e, result)
    if e then
      return err(e.message or vim.inspect(e))
    end
    if not result or not result.cells then
      return err('tlc-lsp returned no layout')
    end
    M.last_error = nil
    local win = layout_buf and find_win(layout_buf)
    if not win then
      vim.cmd('botright vsplit')
      win = vim.api.nvim_get_current_win()
      if not (layout_buf and vim.api.nvim_buf_is_valid(layout_buf)) then
        layout_buf = vim.api.nvim_create_buf(false, true)
        vim.bo[layout_buf].bufhidden = 'hide'
        pcall(vim.api.nvim_buf_set_name, layout_buf, 'tlc://layout')
      end
      vim.api.nvim_win_set_buf(win, layout_buf)
      vim.wo[win].wrap = false
      vim.wo[win].number = false
    end
    local width = vim.api.nvim_win_get_width(win)
    local lines = M.layout_lines(result, width, 64)
    -- A fragment exchange's tiles below the map (tlc/exchange.lua).
    local x = exchange.lines(result.exchanges, width)
    local first = #lines
    vim.list_extend(lines, x.lines)
    vim.bo[layout_buf].modifiable = true
    vim.api.nvim_buf_set_lines(layout_buf, 0, -1, false, lines)
    vim.bo[layout_buf].modifiable = false
    vim.api.nvim_buf_clear_namespace(layout_buf, M.layout_ns, 0, -1)
    for _, h in ipairs(x.highlights) do
      vim.api.nvim_buf_add_highlight(layout_buf, M.layout_ns, h.group, first + h.line, h.from, h.to)
    end
    M.last_layout = result
    local src = find_win(bufnr)
    if src then
      vim.api.nvim_set_current_win(src)
    end
  end, bufnr)
end

--- Called when tlc-lsp attaches to `bufnr` (also from lsp/tlc.lua).
function M.on_attach(client, bufnr)
  local cmd = function(name, fn, opts)
    vim.api.nvim_buf_create_user_command(bufnr, name, fn, opts)
  end
  cmd('TlcGenerated', function(a)
    M.generated(a.args)
  end, { nargs = '?', desc = 'Show the generated CUDA/HIP at the cursor statement' })
  cmd('TlcIR', function()
    M.ir()
  end, { desc = 'Show the Tile IR of the kernel at the cursor' })
  cmd('TlcInstance', function(a)
    M.instance(a.args)
  end, { nargs = '?', desc = 'Pick the kernel instance the hints show' })
  cmd('TlcLayout', function(a)
    M.layout(a.args)
  end, { nargs = '?', desc = 'Show the layout map of the buffer at the cursor (or named) in a split' })
  cmd('TlcOriginal', function()
    M.original()
  end, { desc = 'Jump from generated code back to the TileLang statement' })
  if M.config.inlay_hints then
    local native = M.config.native_inlay_hints and vim.lsp.inlay_hint
                   and compat.has('0.10')
    if native then
      pcall(vim.lsp.inlay_hint.enable, true, { bufnr = bufnr })
    else
      hints.attach(client, bufnr)
    end
  end
  local timer = nil
  vim.api.nvim_create_autocmd('CursorMoved', {
    group = vim.api.nvim_create_augroup('tlc_follow_' .. bufnr, { clear = true }),
    buffer = bufnr,
    callback = function()
      if not view or view.source_buf ~= bufnr then
        return
      end
      if timer then
        timer:stop()
      else
        timer = vim.loop.new_timer()
      end
      timer:start(150, 0, vim.schedule_wrap(function()
        if vim.api.nvim_get_current_buf() == bufnr then
          follow(bufnr)
        end
      end))
    end,
  })
  if M.config.on_attach then
    M.config.on_attach(client, bufnr)
  end
end

--- Handlers tlc needs on every Neovim version.
function M.handlers()
  return {
    ['workspace/inlayHint/refresh'] = function(e, result, ctx, config)
      if vim.lsp.inlay_hint and compat.has('0.10') and M.config.native_inlay_hints then
        local native = vim.lsp.handlers['workspace/inlayHint/refresh']
        if native then
          native(e, result, ctx, config)
        end
      end
      return hints.on_refresh(e, result, ctx)
    end,
    ['window/showDocument'] = function(_, params)
      if not params or not params.uri then
        return { success = false }
      end
      if params.uri:match('%.py$') then
        local path = vim.uri_to_fname(params.uri)
        vim.cmd('edit ' .. vim.fn.fnameescape(path))
      else
        M.open_generated(params.uri, params.selection or {
          start = { line = 0, character = 0 },
          ['end'] = { line = 0, character = 0 },
        }, nil, vim.api.nvim_get_current_buf())
      end
      return { success = true }
    end,
  }
end

--- Client capabilities: Neovim's, plus what the plugin handles itself on
--- every version (hint refresh requests, window/showDocument).
function M.capabilities()
  return vim.tbl_deep_extend('force', vim.lsp.protocol.make_client_capabilities(), {
    workspace = { inlayHint = { refreshSupport = true } },
    window = { showDocument = { support = true } },
  })
end

--- The client configuration for `bufnr` (vim.lsp.start / start_client).
function M.client_config(bufnr)
  local settings = M.config.settings
  local root = find_root(bufnr)
  return {
    name = 'tlc',
    cmd = M.config.cmd,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    settings = settings,
    init_options = settings.tilelang,
    capabilities = M.capabilities(),
    handlers = M.handlers(),
    on_attach = M.on_attach,
  }
end

local client_ids = {} -- root -> client id (Neovim < 0.8)

--- Starts (or reuses) tlc-lsp and attaches it to `bufnr` if the buffer
--- imports tilelang.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if not M.is_tilelang(bufnr) or vim.bo[bufnr].buftype ~= '' then
    return nil
  end
  local config = M.client_config(bufnr)
  if vim.lsp.start then
    return vim.lsp.start(config, { bufnr = bufnr })
  end
  local id = client_ids[config.root_dir]
  if not id or not vim.lsp.get_client_by_id(id) then
    id = vim.lsp.start_client(config)
    client_ids[config.root_dir] = id
  end
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
  return id
end

--- Stops tlc-lsp and attaches a fresh server to the TileLang buffers.
function M.restart()
  local bufs = {}
  for _, client in ipairs(compat.get_clients('tlc')) do
    for bufnr in pairs(client.attached_buffers or {}) do
      table.insert(bufs, bufnr)
    end
    client.stop()
  end
  client_ids = {}
  vim.defer_fn(function()
    for _, bufnr in ipairs(bufs) do
      hints.detach(bufnr)
      M.attach(bufnr)
    end
  end, 500)
end

function M.setup(opts)
  M.config = vim.tbl_deep_extend('force', vim.deepcopy(M.defaults), opts or {})
  vim.api.nvim_set_hl(0, 'TlcInlayHint', { default = true, link = 'Comment' })
  vim.api.nvim_set_hl(0, 'TlcGeneratedRange', { default = true, link = 'Visual' })
  exchange.define_highlights()
  local group = vim.api.nvim_create_augroup('tlc', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = 'python',
    callback = function(args)
      M.attach(args.buf)
    end,
  })
  -- Files that start importing tilelang while being edited.
  vim.api.nvim_create_autocmd({ 'BufWritePost', 'InsertLeave' }, {
    group = group,
    pattern = '*.py',
    callback = function(args)
      if #compat.get_clients('tlc', args.buf) == 0 then
        M.attach(args.buf)
      end
    end,
  })
  vim.api.nvim_create_user_command('TlcRestart', M.restart, { desc = 'Restart tlc-lsp' })
  -- The `Show layout` code lens: [uri, line, character, name].
  vim.lsp.commands['tilelang.showLayout'] = function(command)
    local args = command.arguments or {}
    M.layout(args[4], { line = tonumber(args[2]) or 0, character = tonumber(args[3]) or 0 })
  end
  -- Buffers opened before setup().
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) then
      M.attach(bufnr)
    end
  end
end

return M
