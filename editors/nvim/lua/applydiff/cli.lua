-- Running the `applydiff` command: the plugin's only way to applydiff. Each call passes
-- `-C ROOT` and, for a result, `--json`; stdout and stderr are kept apart (stdout of a --json
-- run holds exactly one JSON object).
local M = {}

M.config = { cmd = 'applydiff', timeout = 60000 }

local function argv(args)
  local cmd = M.config.cmd
  local out = type(cmd) == 'table' and vim.deepcopy(cmd) or { cmd }
  return vim.list_extend(out, args)
end

local function decode(text)
  local ok, value = pcall(function()
    if vim.json and vim.json.decode then
      return vim.json.decode(text)
    end
    return vim.fn.json_decode(text)
  end)
  if ok and type(value) == 'table' then
    return value
  end
  return nil
end

-- JSON null as nil.
function M.v(value)
  if value == vim.NIL then
    return nil
  end
  return value
end

-- Run `cmd args` in `root`, with `input` on stdin. Returns exit code, stdout, stderr (the
-- code is nil, and stderr says why, when the command cannot be started).
function M.run(root, args, input)
  local out, err = { '' }, { '' }
  local ok, job = pcall(vim.fn.jobstart, argv(args), {
    cwd = root,
    stdout_buffered = true,
    stderr_buffered = true,
    on_stdout = function(_, data)
      out = data
    end,
    on_stderr = function(_, data)
      err = data
    end,
  })
  if not ok or job <= 0 then
    return nil, '', 'cannot run ' .. vim.inspect(argv(args)) .. ': is applydiff installed? (setup{ cmd = ... })'
  end
  if input and input ~= '' then
    vim.fn.chansend(job, input)
  end
  vim.fn.chanclose(job, 'stdin')
  local code = vim.fn.jobwait({ job }, M.config.timeout)[1]
  if code == -1 then
    vim.fn.jobstop(job)
    return nil, '', 'applydiff did not answer in ' .. M.config.timeout .. ' ms'
  end
  return code, table.concat(out, '\n'), table.concat(err, '\n')
end

-- `applydiff ARGS -C ROOT --json`: the decoded object, or nil and a message.
function M.json(root, args, input)
  local full = vim.list_extend(vim.deepcopy(args), { '-C', root, '--json' })
  local code, stdout, stderr = M.run(root, full, input)
  if code == nil then
    return nil, stderr
  end
  local value = decode(stdout)
  if value == nil then
    local said = vim.trim(stderr ~= '' and stderr or stdout)
    return nil, 'applydiff ' .. table.concat(args, ' ') .. ' failed (exit ' .. code .. '): ' .. said
  end
  return value
end

-- The same, without waiting: `done(value, message)` is called later, on the main loop.
function M.json_async(root, args, done)
  local full = argv(vim.list_extend(vim.deepcopy(args), { '-C', root, '--json' }))
  local out = { '' }
  local ok, job = pcall(vim.fn.jobstart, full, {
    cwd = root,
    stdout_buffered = true,
    on_stdout = function(_, data)
      out = data
    end,
    on_exit = function()
      local value = decode(table.concat(out, '\n'))
      vim.schedule(function()
        done(value, value == nil and 'applydiff ' .. args[1] .. ' failed' or nil)
      end)
    end,
  })
  if ok and job > 0 then
    vim.fn.chanclose(job, 'stdin')
  end
  return ok and job > 0
end

return M
