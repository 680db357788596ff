/**
 * Hints on Windows: arguments quoted so that they paste into PowerShell and cmd (drive letters,
 * spaces, quotes, dollars, control characters), and the commands that set or remove environment
 * variables written in the form of the shell the user is in. The platform and environment are
 * injected, so these run on any machine.
 */
import { describe, expect, it } from 'vitest';
import { hintShellFor, setVariablesCommand, shellArg, shellCommand, unsetVariablesCommand } from '../../src/shell.js';

describe('the shell hints are written for', () => {
  it('is POSIX outside Windows, PowerShell on Windows, and cmd when cmd started shipbook (PROMPT is set)', () => {
    expect(hintShellFor({ PROMPT: '$P$G' }, 'linux')).toBe('posix');
    expect(hintShellFor({}, 'darwin')).toBe('posix');
    expect(hintShellFor({ PSModulePath: 'C:\\Program Files\\WindowsPowerShell\\Modules' }, 'win32')).toBe('powershell');
    expect(hintShellFor({ PROMPT: '$P$G' }, 'win32')).toBe('cmd');
  });
});

describe('arguments in Windows hints', () => {
  it('leaves a path with a drive letter and no spaces as it is, for both shells', () => {
    expect(shellArg('C:\\orders\\domestic.yaml', 'powershell')).toBe('C:\\orders\\domestic.yaml');
    expect(shellArg('C:\\orders\\domestic.yaml', 'cmd')).toBe('C:\\orders\\domestic.yaml');
    expect(shellArg('ORD-1A2B3C4D', 'powershell')).toBe('ORD-1A2B3C4D');
  });

  it('puts a path with spaces in double quotes, which PowerShell and cmd both read as one argument', () => {
    const path = 'C:\\Users\\Priya Raman\\My orders\\week 48.csv';
    expect(shellArg(path, 'powershell')).toBe(`"${path}"`);
    expect(shellArg(path, 'cmd')).toBe(`"${path}"`);
    // A POSIX shell would not take a backslash literally outside quotes: single quotes there.
    expect(shellArg(path, 'posix')).toBe(`'${path}'`);
  });

  it('uses PowerShell literal quotes for a $ or a quote, and cmd double quotes with \\"', () => {
    expect(shellArg("D:\\it's $5.yaml", 'powershell')).toBe("'D:\\it''s $5.yaml'");
    expect(shellArg('say "hi".yaml', 'cmd')).toBe('"say \\"hi\\".yaml"');
  });

  it('never writes a control character as it is', () => {
    expect(shellArg('ORD-\u001b[31m', 'powershell')).toBe('"ORD-`u{1b}[31m"');
    expect(shellArg('ORD-\u001b[31m', 'cmd')).toBe('"ORD-\\x1b[31m"');
  });

  it('quotes every argument of a hint for the shell of the run, with its --profile', () => {
    expect(shellCommand({ shell: 'powershell' }, 'book', 'C:\\My orders\\a.yaml')).toBe('shipbook book "C:\\My orders\\a.yaml"');
    expect(shellCommand({ shell: 'posix' }, 'book', 'my orders/a.yaml')).toBe("shipbook book 'my orders/a.yaml'");
    expect(shellCommand({ shell: 'posix', profile: 'live au' }, 'order', 'get', 'ORD-1')).toBe("shipbook --profile 'live au' order get ORD-1");
  });
});

describe('hints that set or remove environment variables', () => {
  const vars = { SHIPBOOK_BASE_URL: 'http://127.0.0.1:8788/', SHIPBOOK_API_KEY: 'sk_sandbox_builtin' };

  it('sets them with export, $env: or set, as the shell writes it', () => {
    expect(setVariablesCommand(vars, 'posix')).toBe('export SHIPBOOK_BASE_URL=http://127.0.0.1:8788/ SHIPBOOK_API_KEY=sk_sandbox_builtin');
    expect(setVariablesCommand(vars, 'powershell')).toBe("$env:SHIPBOOK_BASE_URL = 'http://127.0.0.1:8788/'; $env:SHIPBOOK_API_KEY = 'sk_sandbox_builtin'");
    expect(setVariablesCommand(vars, 'cmd')).toBe('set "SHIPBOOK_BASE_URL=http://127.0.0.1:8788/" & set "SHIPBOOK_API_KEY=sk_sandbox_builtin"');
  });

  it('writes a placeholder for the user to replace as it is', () => {
    expect(setVariablesCommand({ SHIPBOOK_API_KEY: '<the key given with --api-key>' }, 'posix')).toBe('export SHIPBOOK_API_KEY=<the key given with --api-key>');
    expect(setVariablesCommand({ SHIPBOOK_API_KEY: '<the key given with --api-key>' }, 'powershell')).toBe(
      '$env:SHIPBOOK_API_KEY = <the key given with --api-key>',
    );
  });

  it('removes them with unset, Remove-Item Env: or an empty set', () => {
    const names = ['SHIPBOOK_BASE_URL', 'SHIPBOOK_API_KEY'];
    expect(unsetVariablesCommand(names, 'posix')).toBe('unset SHIPBOOK_BASE_URL SHIPBOOK_API_KEY');
    expect(unsetVariablesCommand(names, 'powershell')).toBe('Remove-Item Env:SHIPBOOK_BASE_URL, Env:SHIPBOOK_API_KEY');
    expect(unsetVariablesCommand(names, 'cmd')).toBe('set SHIPBOOK_BASE_URL= & set SHIPBOOK_API_KEY=');
  });
});
