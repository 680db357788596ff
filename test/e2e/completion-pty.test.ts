/**
 * Shell completion pressed with Tab in real shells (bash, zsh, fish) in a pseudo-terminal (tmux):
 * the script is loaded the way the README says (bash: `source <(shipbook completion bash)` with no
 * rc file and no bash-completion package; loaded twice), and the screen is read back: commands,
 * flags and values only, never fragments of help text.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasTmux, killTerminals, shellQuote, Terminal } from '../helpers/terminal.js';
import { BIN, runCli } from '../helpers/cli.js';

const has = (shell: string) => spawnSync(shell, ['-c', 'exit 0']).status === 0;
for (const shell of ['bash', 'zsh', 'fish']) if (hasTmux && !has(shell)) console.warn(`skipping the ${shell} completion test: ${shell} is not installed`);
afterAll(killTerminals);

let dir: string;
let env: Record<string, string>;
let orderId: string;

beforeAll(async () => {
  // `shipbook` on PATH, as an installed one would be; a home of its own (the built-in sandbox).
  dir = mkdtempSync(join(tmpdir(), 'shipbook-complete-'));
  mkdirSync(join(dir, 'bin'));
  writeFileSync(join(dir, 'bin', 'shipbook'), `#!/bin/sh\nexec ${shellQuote(process.execPath)} ${shellQuote(BIN)} "$@"\n`);
  chmodSync(join(dir, 'bin', 'shipbook'), 0o755);
  env = {
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, '.config'),
    SHIPBOOK_STATE_DIR: join(dir, 'state'),
    PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}`,
    TERM: 'xterm',
  };
  // A quote leaves its service codes for --service to offer.
  const quoted = await runCli(['quote', '--from', 'AU:2000:Sydney', '--to', 'AU:3000:Melbourne', '--package', '30x20x15cm:2.5kg'], { env });
  expect(quoted.code, quoted.stderr).toBe(0);
  // An order in the built-in sandbox, whose id completion offers.
  const created = await runCli(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '--quiet'], { env });
  expect(created.code, created.stderr).toBe(0);
  orderId = created.stdout.trim();
  mkdirSync(join(dir, 'orders'));
  writeFileSync(join(dir, 'orders', 'monday.yaml'), 'order: {}\n');
});

/** A shell started with no rc file in `dir`, with `env`. */
function shell(command: string): Terminal {
  const vars = Object.entries(env).map(([k, v]) => `${k}=${shellQuote(v)}`);
  return Terminal.shell(`cd ${shellQuote(dir)} && env -i ${vars.join(' ')} ${command}`, 120, 40);
}

/** Fragments of help texts that were once offered as candidates. */
const NOT_CANDIDATES = ['server at it', 'with a first line such as', 'yaml-language-server', 'readonly', 'command not found'];

const COMMANDS_WITH_S = ['sandbox', 'schema', 'service', 'shipment'];

describe.skipIf(!hasTmux || !has('bash'))('bash', () => {
  it('completes commands, flags, service codes, order ids and files after source <(shipbook completion bash), loaded twice', async () => {
    const t = shell(`bash --norc --noprofile`);
    t.keys('-l', 'source <(shipbook completion bash); source <(shipbook completion bash); echo loaded-$?');
    t.keys('Enter');
    await t.waitFor('loaded-0');
    t.keys('-l', 'shipbook s');
    t.keys('Tab', 'Tab');
    const commands = await t.waitFor(/shipment/);
    for (const c of COMMANDS_WITH_S) expect(commands).toContain(c);
    for (const f of NOT_CANDIDATES) expect(commands).not.toContain(f);
    t.keys('C-u');
    t.keys('-l', 'shipbook book --serv');
    t.keys('Tab');
    await t.waitFor('shipbook book --service ');
    t.keys('Tab', 'Tab');
    const codes = await t.waitFor(/SB-DOM-ROAD/);
    expect(codes).toContain('cheapest');
    t.keys('C-u');
    t.keys('-l', 'shipbook order get ORD-');
    t.keys('Tab', 'Tab');
    await t.waitFor(`shipbook order get ${orderId}`);
    t.keys('C-u');
    t.keys('-l', 'shipbook validate orders/mon');
    t.keys('Tab');
    await t.waitFor('shipbook validate orders/monday.yaml');
    t.keys('C-u');
  });
});

describe.skipIf(!hasTmux || !has('zsh'))('zsh', () => {
  it('completes commands with their one-line summaries and the service codes after source <(shipbook completion zsh)', async () => {
    const t = shell(`zsh -f`);
    t.keys('-l', 'source <(shipbook completion zsh); source <(shipbook completion zsh); echo loaded-$?');
    t.keys('Enter');
    await t.waitFor('loaded-0');
    t.keys('-l', 'shipbook s');
    t.keys('Tab');
    const commands = await t.waitFor(/shipment.*consolidated mail/);
    for (const c of COMMANDS_WITH_S) expect(commands).toContain(c);
    for (const f of NOT_CANDIDATES) expect(commands).not.toContain(f);
    t.keys('C-u');
    t.keys('-l', 'shipbook book --service ');
    t.keys('Tab');
    const codes = await t.waitFor(/SB-DOM-ROAD/);
    expect(codes).toContain('cheapest');
  });
});

describe.skipIf(!hasTmux || !has('fish'))('fish', () => {
  it('completes commands and the service codes after shipbook completion fish | source', async () => {
    const t = shell(`fish --no-config`);
    t.keys('-l', 'shipbook completion fish | source; shipbook completion fish | source; echo loaded-$status');
    t.keys('Enter');
    await t.waitFor('loaded-0');
    t.keys('-l', 'shipbook s');
    t.keys('Tab');
    const commands = await t.waitFor(/shipment/);
    for (const c of COMMANDS_WITH_S) expect(commands).toContain(c);
    for (const f of NOT_CANDIDATES) expect(commands).not.toContain(f);
    t.keys('C-u');
    t.keys('-l', 'shipbook book --service ');
    t.keys('Tab');
    const codes = await t.waitFor(/SB-DOM-ROAD/);
    expect(codes).toContain('cheapest');
  });
});
