-- plugin/tlc.lua - nothing runs until require('tlc').setup{} (or
-- vim.lsp.enable('tlc') on Neovim 0.11+ with lsp/tlc.lua).
if vim.g.loaded_tlc then
  return
end
vim.g.loaded_tlc = true
