-- tlc/hints.lua - inlay hints as virtual text for Neovim < 0.10.
--
-- Part of the tlc project.
-- SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
--
-- Neovim 0.10+ renders inlay hints itself (vim.lsp.inlay_hint). Older
-- versions (Debian 12 ships 0.7.2) know nothing about them: this module
-- asks tlc-lsp for textDocument/inlayHint and shows the labels of each line
-- as end-of-line virtual text in the `tlc_hints` namespace, refreshed after
-- edits and on workspace/inlayHint/refresh.

local compat = require('tlc.compat')

local M = {}

M.ns = vim.api.nvim_create_namespace('tlc_hints')

local state = {} -- bufnr -> { timer, seq, client_id }

local function label_text(label)
  if type(label) == 'string' then
    return label
  end
  local parts = {}
  for _, part in ipairs(label or {}) do
    table.insert(parts, part.value or '')
  end
  return table.concat(parts)
end

--- Draws `hints` (an LSP InlayHint[]) into `bufnr`: one virtual text per
--- line, hints of a line joined in order.
function M.render(bufnr, hints, encoding)
  vim.api.nvim_buf_clear_namespace(bufnr, M.ns, 0, -1)
  local by_line = {}
  local count = vim.api.nvim_buf_line_count(bufnr)
  for _, hint in ipairs(hints or {}) do
    local row = hint.position.line
    if row < count then
      local line = compat.line(bufnr, row)
      local col = compat.col_of_char(line, hint.position.character, encoding)
      by_line[row] = by_line[row] or {}
      table.insert(by_line[row], { col = col, text = label_text(hint.label) })
    end
  end
  for row, items in pairs(by_line) do
    table.sort(items, function(a, b)
      return a.col < b.col
    end)
    local texts = {}
    for _, item in ipairs(items) do
      table.insert(texts, item.text)
    end
    vim.api.nvim_buf_set_extmark(bufnr, M.ns, row, 0, {
      virt_text = { { '▸ ' .. table.concat(texts, '  ▸ '), 'TlcInlayHint' } },
      virt_text_pos = 'eol',
      hl_mode = 'combine',
    })
  end
end

--- Requests the hints of the whole buffer now.
function M.refresh(bufnr)
  local st = state[bufnr]
  if not st or not vim.api.nvim_buf_is_valid(bufnr) then
    return
  end
  local client = vim.lsp.get_client_by_id(st.client_id)
  if not client then
    return
  end
  st.seq = st.seq + 1
  local seq = st.seq
  local last = math.max(vim.api.nvim_buf_line_count(bufnr), 1)
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = {
      start = { line = 0, character = 0 },
      ['end'] = { line = last, character = 0 },
    },
  }
  compat.request(client, 'textDocument/inlayHint', params, function(err, result)
    if seq ~= st.seq or not vim.api.nvim_buf_is_valid(bufnr) then
      return -- Superseded by a later request.
    end
    if err then
      -- ContentModified and friends: a later refresh brings fresh hints.
      return
    end
    M.render(bufnr, result, compat.encoding(client))
    vim.api.nvim_buf_set_var(bufnr, 'tlc_hints_tick', seq)
  end, bufnr)
end

--- Refreshes after `delay` ms; later calls supersede earlier ones.
function M.schedule(bufnr, delay)
  local st = state[bufnr]
  if not st then
    return
  end
  if st.timer then
    st.timer:stop()
  else
    st.timer = vim.loop.new_timer()
  end
  st.timer:start(delay, 0, vim.schedule_wrap(function()
    M.refresh(bufnr)
  end))
end

--- Starts showing hints of `client` in `bufnr`.
function M.attach(client, bufnr)
  if state[bufnr] then
    state[bufnr].client_id = client.id
    M.schedule(bufnr, 0)
    return
  end
  state[bufnr] = { seq = 0, client_id = client.id }
  local group = vim.api.nvim_create_augroup('tlc_hints_' .. bufnr, { clear = true })
  vim.api.nvim_create_autocmd({ 'TextChanged', 'InsertLeave' }, {
    group = group,
    buffer = bufnr,
    callback = function()
      M.schedule(bufnr, 200)
    end,
  })
  vim.api.nvim_create_autocmd({ 'BufWipeout', 'BufUnload' }, {
    group = group,
    buffer = bufnr,
    callback = function()
      M.detach(bufnr)
    end,
  })
  M.schedule(bufnr, 0)
end

function M.detach(bufnr)
  local st = state[bufnr]
  if not st then
    return
  end
  if st.timer then
    st.timer:stop()
    st.timer:close()
  end
  state[bufnr] = nil
  pcall(vim.api.nvim_del_augroup_by_name, 'tlc_hints_' .. bufnr)
  if vim.api.nvim_buf_is_valid(bufnr) then
    vim.api.nvim_buf_clear_namespace(bufnr, M.ns, 0, -1)
  end
end

--- Handler for the server's workspace/inlayHint/refresh request.
function M.on_refresh(_, _, ctx)
  for bufnr, st in pairs(state) do
    if not ctx or st.client_id == ctx.client_id then
      M.schedule(bufnr, 0)
    end
  end
  return vim.NIL
end

return M
