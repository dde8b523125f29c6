-- :Applydiff, and the refresh on write and focus (setup() is optional: it changes the config).
if vim.g.loaded_applydiff then
  return
end
vim.g.loaded_applydiff = true

vim.api.nvim_create_user_command('Applydiff', function(opts)
  require('applydiff').command(opts)
end, {
  nargs = '*',
  range = true,
  desc = 'applydiff: status, review, apply, accept, discard, merge, undo, schema',
  complete = function(arglead, line)
    return require('applydiff').complete(arglead, line)
  end,
})
require('applydiff').autocmds()
