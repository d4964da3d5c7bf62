-- lsp/tlc.lua - tlc-lsp for Neovim 0.11+'s vim.lsp.config / vim.lsp.enable.
--
-- Part of the tlc project.
-- SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
--
-- With this plugin on the runtimepath:
--   vim.lsp.enable('tlc')
--   vim.lsp.config('tlc', { settings = { tilelang = { target = 'hip:gfx942' } } })
-- The server attaches only to Python buffers that import tilelang, with
-- inlay hints on and the :Tlc* commands of require('tlc').

local function imports_tilelang(bufnr)
  for _, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    if line:match('^%s*import%s+tilelang') or line:match('^%s*from%s+tilelang') then
      return true
    end
  end
  return false
end

local ok, tlc = pcall(require, 'tlc')

-- Where a project starts (root_dir falls back to the file's directory).
local root_markers = { 'pyproject.toml', 'setup.py', 'setup.cfg', '.git' }

return {
  cmd = { 'tlc-lsp' },
  filetypes = { 'python' },
  root_markers = root_markers,
  -- Declining to call on_dir keeps the server away from other Python files.
  root_dir = function(bufnr, on_dir)
    if not imports_tilelang(bufnr) then
      return
    end
    local name = vim.api.nvim_buf_get_name(bufnr)
    local root = vim.fs.root(bufnr, root_markers)
    on_dir(root or vim.fs.dirname(name))
  end,
  settings = {
    tilelang = {
      target = 'cuda:sm_90a',
      instance = 0,
      inlayHints = { buffers = true, layouts = true, launches = true, pipelines = true },
    },
  },
  capabilities = ok and tlc.capabilities() or nil,
  handlers = ok and tlc.handlers() or nil,
  on_attach = function(client, bufnr)
    if ok then
      tlc.on_attach(client, bufnr)
    else
      vim.lsp.inlay_hint.enable(true, { bufnr = bufnr })
    end
  end,
}
