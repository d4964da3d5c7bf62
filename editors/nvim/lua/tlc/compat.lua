-- tlc/compat.lua - Neovim API differences between 0.7 and 0.11+.
--
-- Part of the tlc project.
-- SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

local M = {}

local function has(version)
  return vim.fn.has('nvim-' .. version) == 1
end

M.has = has

--- Sends a request with the method syntax on 0.11+ and the dot syntax
--- before (the dot form warns on 0.11).
function M.request(client, method, params, handler, bufnr)
  if has('0.11') then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

function M.notify(client, method, params)
  if has('0.11') then
    return client:notify(method, params)
  end
  return client.notify(method, params)
end

--- The clients named `name` (attached to `bufnr` when given).
function M.get_clients(name, bufnr)
  local clients
  if vim.lsp.get_clients then
    clients = vim.lsp.get_clients({ name = name, bufnr = bufnr })
  elseif bufnr then
    clients = vim.tbl_values(vim.lsp.buf_get_clients(bufnr))
  else
    clients = vim.lsp.get_active_clients()
  end
  local out = {}
  for _, client in ipairs(clients) do
    if client.name == name and not (client.is_stopped and client.is_stopped()) then
      table.insert(out, client)
    end
  end
  return out
end

--- LSP character of byte column `col` (0-based) of `line`.
function M.char_of_col(line, col, encoding)
  col = math.min(col, #line)
  if encoding == 'utf-8' then
    return col
  end
  if has('0.11') then
    return vim.str_utfindex(line, encoding, col, false)
  end
  local ok, u32, u16 = pcall(vim.str_utfindex, line, col)
  if not ok then
    return col
  end
  return encoding == 'utf-16' and u16 or u32
end

--- Byte column (0-based) of LSP character `char` of `line`, clamped.
function M.col_of_char(line, char, encoding)
  if encoding == 'utf-8' then
    return math.min(char, #line)
  end
  if has('0.11') then
    return vim.str_byteindex(line, encoding, char, false)
  end
  local ok, col = pcall(vim.str_byteindex, line, char, encoding == 'utf-16')
  if not ok then
    return #line
  end
  return col
end

--- The offset encoding a client negotiated.
function M.encoding(client)
  return client.offset_encoding or 'utf-16'
end

--- Text of line `row` (0-based) of `bufnr`.
function M.line(bufnr, row)
  return vim.api.nvim_buf_get_lines(bufnr, row, row + 1, false)[1] or ''
end

return M
