-- applydiff for Neovim: the session's pending model outputs (status, review, accept, discard,
-- merge, undo) and applying a model's answer, all through the `applydiff` command's --json.
-- Nothing here edits files itself: the command writes, the plugin reloads what it changed.
local cli = require('applydiff.cli')
local v = cli.v
local api = vim.api

local M = {}

M.config = { cmd = 'applydiff', root = nil, diff_mode = 'search_replace_multi' }

-- What the last `status --json` said: rows in order, and by path.
M.rows, M.by_path, M.root_seen = {}, {}, nil
-- Pending outputs fetched with `show`, by path: { key = pending_file_id, output = text|nil }.
local shown = {}
local review = nil -- the open review: { tab, path, buf, disk_buf }

local STATUS_NAME = 'applydiff://status'

-- messages -------------------------------------------------------------------------------
local function say(msg, level)
  vim.notify('applydiff: ' .. msg, level or vim.log.levels.INFO)
end
local function warn(msg)
  say(msg, vim.log.levels.WARN)
end
local function fail(msg)
  say(msg, vim.log.levels.ERROR)
end

-- paths ----------------------------------------------------------------------------------
local function real(path)
  return vim.loop.fs_realpath(path) or vim.fn.fnamemodify(path, ':p'):gsub('/$', '')
end

-- The project root: setup's `root`, else the nearest directory above the current one that
-- holds `.applydiff`, else the current directory.
function M.root()
  if M.config.root then
    return real(vim.fn.expand(M.config.root))
  end
  local found = vim.fn.finddir('.applydiff', vim.fn.getcwd() .. ';')
  if found ~= '' then
    return real(vim.fn.fnamemodify(found, ':p:h:h'))
  end
  return real(vim.fn.getcwd())
end

local function has_store(root)
  return vim.loop.fs_stat(root .. '/.applydiff') ~= nil
end

local function full(root, path)
  return root .. '/' .. path
end

-- The buffer's path relative to the root, or nil when it is outside it (or not a file).
local function rel(buf, root)
  local name = api.nvim_buf_get_name(buf)
  if name == '' or name:match('^%a[%w+.-]*://') then
    return nil
  end
  local abs = vim.fn.fnamemodify(name, ':p')
  local dir = real(vim.fn.fnamemodify(abs, ':h'))
  abs = dir .. '/' .. vim.fn.fnamemodify(abs, ':t')
  if abs:sub(1, #root + 1) == root .. '/' then
    return abs:sub(#root + 2)
  end
  return nil
end

local function buf_of(root, path)
  for _, b in ipairs(api.nvim_list_bufs()) do
    if api.nvim_buf_is_loaded(b) and rel(b, root) == path then
      return b
    end
  end
  return nil
end

-- The paths among `paths` whose buffer has changes not written.
local function modified(root, paths)
  local out = {}
  for _, p in ipairs(paths) do
    local b = buf_of(root, p)
    if b and vim.bo[b].modified then
      table.insert(out, p)
    end
  end
  return out
end

-- Every modified buffer under the root.
local function modified_under(root)
  local out = {}
  for _, b in ipairs(api.nvim_list_bufs()) do
    if api.nvim_buf_is_loaded(b) and vim.bo[b].modified then
      local p = rel(b, root)
      if p then
        table.insert(out, p)
      end
    end
  end
  return out
end

local function refuse_modified(paths, what)
  if #paths == 0 then
    return false
  end
  warn(
    table.concat(paths, ', ')
      .. ' has changes not written; '
      .. what
      .. ' works on the disk: :write them (or :edit! to drop them) first; nothing was done'
  )
  return true
end

-- Reload the buffers of files applydiff changed on disk (`checktime`; a buffer with changes
-- not written is never touched: Neovim asks about it as for any file changed outside).
local function reload(root, paths)
  for _, p in ipairs(paths) do
    local b = buf_of(root, p)
    if b and not vim.bo[b].modified then
      vim.bo[b].autoread = true
      api.nvim_buf_call(b, function()
        vim.cmd('silent! checktime ' .. b)
      end)
    end
  end
end

local function text_lines(text)
  if text == nil or text == '' then
    return {}, false
  end
  local lines = vim.split(text, '\n', true)
  if lines[#lines] == '' then
    table.remove(lines)
  end
  local crlf = #lines > 0
  for _, l in ipairs(lines) do
    if l:sub(-1) ~= '\r' then
      crlf = false
      break
    end
  end
  if crlf then
    for k, l in ipairs(lines) do
      lines[k] = l:sub(1, -2)
    end
  end
  return lines, crlf
end

local function named(name)
  for _, b in ipairs(api.nvim_list_bufs()) do
    if api.nvim_buf_get_name(b) == name then
      return b
    end
  end
  return nil
end

local function scratch(name, lines, ft, ff)
  local old = named(name)
  local b = old or api.nvim_create_buf(false, true)
  if not old then
    api.nvim_buf_set_name(b, name)
  end
  vim.bo[b].buftype = 'nofile'
  vim.bo[b].bufhidden = 'hide'
  vim.bo[b].swapfile = false
  vim.bo[b].modifiable = true
  api.nvim_buf_set_lines(b, 0, -1, false, lines)
  if ff then
    vim.bo[b].fileformat = ff
  end
  vim.bo[b].modifiable = false
  vim.bo[b].modified = false
  if ft then
    vim.bo[b].filetype = ft
  end
  return b
end

local function map(buf, key, fn, desc)
  vim.keymap.set('n', key, fn, { buffer = buf, nowait = true, silent = true, desc = desc })
end

-- status ---------------------------------------------------------------------------------
local function set_rows(root, result)
  M.root_seen = root
  M.rows, M.by_path = {}, {}
  for _, r in ipairs(result.files or {}) do
    local row = {
      path = r.path,
      status = v(r.status) or '',
      file_id = v(r.file_id),
      pending_file_id = v(r.pending_file_id),
    }
    table.insert(M.rows, row)
    M.by_path[r.path] = row
  end
end

local function pending(row)
  return row and (row.status == 'M' or row.status == 'A' or row.status == 'D' or row.status == '~M')
end

local function draw_status()
  if not named(STATUS_NAME) then
    return
  end
  local lines = {}
  for _, r in ipairs(M.rows) do
    table.insert(lines, string.format('%-2s %s', r.status, r.path))
  end
  if #lines == 0 then
    lines = { '  (no files in the session)' }
  end
  scratch(STATUS_NAME, lines, 'applydiff')
end

local update_signs

local function after_status()
  draw_status()
  update_signs()
  vim.cmd('redrawstatus!')
end

-- Ask `applydiff status` again (now, or with `async` in the background).
function M.refresh(async)
  local root = M.root()
  if not has_store(root) then
    M.rows, M.by_path, M.root_seen = {}, {}, root
    after_status()
    return true
  end
  if async then
    return cli.json_async(root, { 'status' }, function(result)
      if result and result.ok then
        set_rows(root, result)
        after_status()
      end
    end)
  end
  local result, err = cli.json(root, { 'status' })
  if not result or not result.ok then
    fail(err or 'status failed: ' .. vim.inspect(result and result.errors))
    return false
  end
  set_rows(root, result)
  for _, w in ipairs(result.warnings or {}) do
    warn(w)
  end
  after_status()
  return true
end

local function status_path()
  local line = api.nvim_get_current_line()
  local path = line:sub(4)
  if M.by_path[path] then
    return path
  end
  return nil
end

function M.status()
  if not M.refresh(false) then
    return
  end
  local b = scratch(STATUS_NAME, {}, 'applydiff')
  draw_status()
  local win = vim.fn.bufwinid(b)
  if win ~= -1 then
    api.nvim_set_current_win(win)
  else
    vim.cmd('botright ' .. math.min(math.max(#M.rows, 1), 10) + 1 .. 'split')
    api.nvim_win_set_buf(0, b)
    vim.wo.number, vim.wo.relativenumber, vim.wo.winfixheight = false, false, true
    vim.wo.signcolumn = 'no'
  end
  map(b, '<CR>', function()
    local p = status_path()
    if p then
      M.review(p)
    end
  end, 'review this file')
  for key, verb in pairs({ a = 'accept', d = 'discard', m = 'merge' }) do
    map(b, key, function()
      local p = status_path()
      if p then
        M.resolve(verb, { p })
      end
    end, verb .. ' this file')
  end
  map(b, 'R', function()
    M.refresh(false)
  end, 'refresh')
  map(b, 'q', '<cmd>close<cr>', 'close')
end

-- accept, discard, merge, undo -------------------------------------------------------------
local function show_errors(result, title, answer)
  local items = {}
  for _, e in ipairs(result.errors or {}) do
    local path = v(e.path)
    local item = {
      text = e.code .. (path and (' ' .. path) or '') .. ': ' .. (v(e.message) or ''),
      type = 'E',
    }
    if answer then
      item.bufnr = answer.buf
      item.lnum = (v(e.answer_line) or 1) + answer.offset
    elseif path then
      item.filename = full(M.root(), path)
      item.lnum = 1
    end
    table.insert(items, item)
  end
  vim.fn.setqflist({}, ' ', { title = title, items = items })
  return #items
end

-- Open the first conflict of a merge (and list them all in the quickfix list).
local function show_conflicts(root, result)
  local items = {}
  for _, f in ipairs(result.files or {}) do
    for _, span in ipairs(v(f.conflicts) or {}) do
      table.insert(items, {
        filename = full(root, f.path),
        lnum = span[1],
        text = 'conflict: lines ' .. span[1] .. '-' .. span[2] .. ' (<<<<<<< ... >>>>>>>)',
        type = 'W',
      })
    end
  end
  vim.fn.setqflist({}, ' ', { title = 'applydiff merge', items = items })
  return #items
end

local function close_review()
  if review and api.nvim_tabpage_is_valid(review.tab) then
    local tab = review.tab
    review = nil
    if #api.nvim_list_tabpages() > 1 then
      api.nvim_set_current_tabpage(tab)
      vim.cmd('diffoff!')
      vim.cmd('tabclose!')
    else
      vim.cmd('diffoff!')
      vim.cmd('only')
    end
  end
  review = nil
end

-- accept / discard / merge the pending outputs of `paths` (all when empty).
function M.resolve(verb, paths)
  local root = M.root()
  paths = paths or {}
  if verb ~= 'discard' then
    M.refresh(false)
    local names = paths
    if #names == 0 then
      names = {}
      for _, r in ipairs(M.rows) do
        if pending(r) then
          table.insert(names, r.path)
        end
      end
    end
    if refuse_modified(modified(root, names), verb) then
      return false
    end
  end
  local after = review and M.next_pending(review.path, 1) -- reviewed next, in today's order
  local result, err = cli.json(root, vim.list_extend({ verb }, paths))
  if not result then
    fail(err)
    return false
  end
  local done = {}
  for _, f in ipairs(result.files or {}) do
    table.insert(done, f.path)
  end
  reload(root, done)
  local was = review and review.path
  if review and (vim.tbl_contains(done, review.path) or #paths == 0) then
    close_review()
  end
  M.refresh(false)
  if verb == 'merge' and show_conflicts(root, result) > 0 then
    vim.cmd('cfirst')
    warn('merged with conflicts: resolve the <<<<<<< ... >>>>>>> regions (quickfix list), then :write')
    return true
  end
  if not result.ok or (#done == 0 and #(result.errors or {}) > 0) then
    if show_errors(result, 'applydiff ' .. verb) > 0 then
      fail(result.errors[1].message)
    end
    return false
  end
  local said = {}
  for _, f in ipairs(result.files or {}) do
    table.insert(said, f.action .. ': ' .. f.path)
  end
  say(#said > 0 and table.concat(said, ', ') or 'nothing pending')
  if was and not review then
    local nxt = (after and pending(M.by_path[after])) and after or M.next_pending(nil, 1)
    if nxt then
      M.review(nxt)
    end
  end
  return true
end

function M.undo(path)
  local root = M.root()
  if path then
    path = rel(vim.fn.bufadd(vim.fn.fnamemodify(path, ':p')), root) or path
  end
  local mine = path and modified(root, { path }) or modified_under(root)
  if refuse_modified(mine, 'undo') then
    return false
  end
  local result, err = cli.json(root, path and { 'undo', path } or { 'undo' })
  if not result then
    fail(err)
    return false
  end
  if not result.ok then
    show_errors(result, 'applydiff undo')
    fail((result.errors[1] or {}).message or 'undo failed')
    return false
  end
  local done, said = {}, {}
  for _, f in ipairs(result.files or {}) do
    table.insert(done, f.path)
    table.insert(said, f.action .. ': ' .. f.path)
  end
  reload(root, done)
  M.refresh(false)
  say(table.concat(said, ', '))
  return true
end

-- review ---------------------------------------------------------------------------------
-- The pending path after (step 1) or before (step -1) `path`, in status order.
function M.next_pending(path, step)
  local n = #M.rows
  local at = 0
  for k, r in ipairs(M.rows) do
    if r.path == path then
      at = k
    end
  end
  if at == 0 and step < 0 then
    at = 1
  end
  for k = 1, n do
    local r = M.rows[(at - 1 + k * step) % n + 1]
    if pending(r) and r.path ~= path then
      return r.path
    end
  end
  return nil
end

local function fetch(root, path)
  local result, err = cli.json(root, { 'show', path })
  if not result then
    return nil, err
  end
  if not result.ok then
    return nil, (result.errors[1] or {}).message
  end
  local row = M.by_path[path]
  shown[path] = { key = row and row.pending_file_id or v(result.pending_file_id), output = v(result.output) }
  return result
end

function M.review(path)
  local root = M.root()
  M.refresh(false)
  if path then
    path = rel(vim.fn.bufadd(vim.fn.fnamemodify(path, ':p')), root) or path
  else
    local here = rel(api.nvim_get_current_buf(), root)
    path = (here and pending(M.by_path[here])) and here or M.next_pending(nil, 1)
  end
  if not path or not pending(M.by_path[path]) then
    warn(path and ('nothing pending for ' .. path) or 'nothing pending')
    return false
  end
  local result, err = fetch(root, path)
  if not result then
    fail(err)
    return false
  end
  close_review()
  local row = M.by_path[path]
  vim.cmd('tabnew')
  local tab = api.nvim_get_current_tabpage()
  local disk_buf
  if row.status == 'A' then -- nothing on disk yet
    disk_buf = scratch('applydiff://disk/' .. path, {}, nil)
    api.nvim_win_set_buf(0, disk_buf)
  else
    vim.cmd('edit ' .. vim.fn.fnameescape(full(root, path)))
    disk_buf = api.nvim_get_current_buf()
  end
  vim.cmd('diffthis')
  local lines, crlf = text_lines(v(result.output))
  local b = scratch('applydiff://pending/' .. path, lines, vim.bo[disk_buf].filetype, crlf and 'dos' or 'unix')
  vim.cmd('rightbelow vsplit')
  api.nvim_win_set_buf(0, b)
  vim.cmd('diffthis')
  review = { tab = tab, path = path, buf = b, disk_buf = disk_buf }
  for _, rb in ipairs({ b, row.status == 'A' and disk_buf or nil }) do
    map(rb, 'a', function()
      M.resolve('accept', { path })
    end, 'accept the pending output')
    map(rb, 'd', function()
      M.resolve('discard', { path })
    end, 'discard the pending output')
    map(rb, 'm', function()
      M.resolve('merge', { path })
    end, 'merge it three ways with the disk')
    map(rb, ']f', function()
      local n = M.next_pending(path, 1)
      if n then
        M.review(n)
      end
    end, 'next pending file')
    map(rb, '[f', function()
      local n = M.next_pending(path, -1)
      if n then
        M.review(n)
      end
    end, 'previous pending file')
    map(rb, 'q', close_review, 'close the review')
  end
  vim.wo.statusline = 'pending ' .. row.status .. ' ' .. path:gsub('%%', '%%%%') .. '  a/d/m accept/discard/merge ]f [f q'
  return true
end

-- signs and statusline ------------------------------------------------------------------------
vim.fn.sign_define('ApplydiffAdd', { text = '+', texthl = 'DiffAdd' })
vim.fn.sign_define('ApplydiffChange', { text = '~', texthl = 'DiffChange' })
vim.fn.sign_define('ApplydiffDelete', { text = '_', texthl = 'DiffDelete' })

-- Lines of `buf` the pending output would change: { {lnum, sign}, ... }.
local function changed_lines(buf, output)
  local lines = api.nvim_buf_get_lines(buf, 0, -1, false)
  if output == nil then
    local out = {}
    for k = 1, #lines do
      table.insert(out, { k, 'ApplydiffDelete' })
    end
    return out
  end
  local mine = table.concat(lines, '\n') .. '\n'
  local theirs = table.concat((text_lines(output)), '\n') .. '\n'
  local out = {}
  for _, h in ipairs(vim.diff(mine, theirs, { result_type = 'indices' })) do
    local sa, ca, cb = h[1], h[2], h[4]
    if ca == 0 then
      table.insert(out, { math.max(sa, 1), 'ApplydiffAdd' })
    else
      for k = sa, sa + ca - 1 do
        table.insert(out, { k, cb == 0 and 'ApplydiffDelete' or 'ApplydiffChange' })
      end
    end
  end
  return out
end

update_signs = function()
  local root = M.root_seen or M.root()
  for _, b in ipairs(api.nvim_list_bufs()) do
    if api.nvim_buf_is_loaded(b) and vim.bo[b].buftype == '' then
      vim.fn.sign_unplace('applydiff', { buffer = b })
      local p = rel(b, root)
      local row = p and M.by_path[p]
      if row and pending(row) and row.status ~= 'A' then
        local got = shown[p]
        if not got or got.key ~= row.pending_file_id then
          got = fetch(root, p) and shown[p]
        end
        if got then
          for _, s in ipairs(changed_lines(b, got.output)) do
            vim.fn.sign_place(0, 'applydiff', s[2], b, { lnum = s[1], priority = 8 })
          end
        end
      end
    end
  end
end

-- The file's code for a statusline (M, A, D, ~, ~M; '' when nothing to say):
-- `set statusline+=%{v:lua.require'applydiff'.statusline()}`
function M.statusline(buf)
  buf = buf or api.nvim_get_current_buf()
  local root = M.root_seen
  local p = root and rel(buf, root)
  local row = p and M.by_path[p]
  return row and row.status or ''
end

-- apply ------------------------------------------------------------------------------------
-- Preview a model's answer as a diff; `y` applies it (all files or none), `r` keeps its
-- outputs pending for review, `q` cancels. Errors go to the quickfix list, each at the
-- answer's line where the failed edit starts. `opts`: { text, buf, offset }.
function M.apply(opts)
  local root = M.root()
  local text = opts.text
  local answer = { buf = opts.buf, offset = opts.offset or 0 }
  local result, err = cli.json(root, { 'apply', '-', '--dry-run' }, text)
  if not result then
    fail(err)
    return false
  end
  if not result.ok then
    local n = show_errors(result, 'applydiff apply', answer)
    vim.cmd('copen')
    vim.cmd('wincmd p')
    fail(n .. ' edit(s) failed; nothing was written (quickfix list)')
    return false
  end
  local files = {}
  for _, f in ipairs(result.files or {}) do
    table.insert(files, f.path)
    if v(f.to) then
      table.insert(files, f.to)
    end
  end
  if #files == 0 then
    say('nothing to apply')
    return false
  end
  local _, diff = cli.run(root, { 'apply', '-', '--dry-run', '--color=never', '-C', root }, text)
  local header = {
    '# applydiff: y apply to ' .. #result.files .. ' file(s)   r keep pending for review   q cancel',
  }
  local lines = vim.list_extend(header, vim.split(diff or '', '\n', true))
  if lines[#lines] == '' then
    table.remove(lines)
  end
  vim.cmd('tabnew')
  local b = scratch('applydiff://preview', lines, 'diff')
  api.nvim_win_set_buf(0, b)
  local function finish(review_mode)
    local now = modified(root, files)
    if refuse_modified(now, 'apply') then
      return
    end
    local args = review_mode and { 'apply', '-', '--review', '--yes' } or { 'apply', '-', '--yes' }
    local done, why = cli.json(root, args, text)
    if api.nvim_buf_is_valid(b) and vim.fn.bufwinid(b) ~= -1 then
      vim.cmd('tabclose!')
    end
    if not done then
      fail(why)
      return
    end
    if not done.ok then
      show_errors(done, 'applydiff apply', answer)
      vim.cmd('copen')
      fail('not applied; nothing was written (quickfix list)')
      return
    end
    reload(root, files)
    M.refresh(false)
    if review_mode then
      say('kept ' .. #done.files .. ' file(s) pending: :Applydiff status')
    else
      say('applied to ' .. #done.files .. ' file(s); :Applydiff undo takes it back')
    end
  end
  map(b, 'y', function()
    finish(false)
  end, 'apply')
  map(b, 'r', function()
    finish(true)
  end, 'keep pending for review')
  map(b, 'q', '<cmd>tabclose!<cr>', 'cancel')
  return true
end

-- The rules of setup's diff_mode (`applydiff schema`), to give the model.
function M.schema()
  local code, out, err = cli.run(M.root(), { 'schema', '--mode', M.config.diff_mode })
  if code ~= 0 then
    fail(err)
    return
  end
  vim.cmd('tabnew')
  api.nvim_win_set_buf(0, scratch('applydiff://schema', vim.split(out, '\n', true), 'json'))
end

-- the command ---------------------------------------------------------------------------
local SUB = { 'status', 'review', 'apply', 'accept', 'discard', 'merge', 'undo', 'schema' }

function M.command(opts)
  local args = opts.fargs
  local sub = table.remove(args, 1) or 'status'
  if sub == 'status' then
    M.status()
  elseif sub == 'review' then
    M.review(args[1])
  elseif sub == 'accept' or sub == 'discard' or sub == 'merge' then
    M.resolve(sub, args)
  elseif sub == 'undo' then
    M.undo(args[1])
  elseif sub == 'schema' then
    M.schema()
  elseif sub == 'apply' then
    local reg = args[1] and args[1]:match('^@(.)$')
    if reg then
      local text = vim.fn.getreg(reg)
      local b = scratch('applydiff://answer', vim.split(text, '\n', true), 'markdown')
      M.apply({ text = text, buf = b, offset = 0 })
    else
      local buf = api.nvim_get_current_buf()
      local first, last = 1, api.nvim_buf_line_count(buf)
      if opts.range > 0 then
        first, last = opts.line1, opts.line2
      end
      local lines = api.nvim_buf_get_lines(buf, first - 1, last, false)
      M.apply({ text = table.concat(lines, '\n') .. '\n', buf = buf, offset = first - 1 })
    end
  else
    fail('unknown command ' .. sub .. '; the commands: ' .. table.concat(SUB, ', '))
  end
end

function M.complete(arglead, line)
  local words = vim.split(line, '%s+')
  if #words <= 2 then
    return vim.tbl_filter(function(s)
      return s:sub(1, #arglead) == arglead
    end, SUB)
  end
  local out = {}
  for _, r in ipairs(M.rows) do
    if r.path:sub(1, #arglead) == arglead then
      table.insert(out, r.path)
    end
  end
  return out
end

-- Refresh in the background after a write under the root, and when Neovim gets the focus.
local function on_event(ev)
  local root = M.root()
  if not has_store(root) then
    return
  end
  if ev.event == 'BufWritePost' and not rel(ev.buf, root) then
    return
  end
  M.refresh(true)
end

function M.setup(opts)
  M.config = vim.tbl_extend('force', M.config, opts or {})
  cli.config.cmd = M.config.cmd
  M.autocmds()
  return M
end

function M.autocmds()
  local group = api.nvim_create_augroup('Applydiff', { clear = true })
  api.nvim_create_autocmd({ 'BufWritePost', 'FocusGained' }, { group = group, callback = on_event })
  api.nvim_create_autocmd('BufReadPost', {
    group = group,
    callback = function()
      if M.root_seen then
        update_signs()
      end
    end,
  })
end

return M
