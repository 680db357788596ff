import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pathCandidates, profileCandidates, senderCandidates } from '../../src/commands/completion/index.js';
import { prepareContext, createContext, type GlobalOptions } from '../../src/context.js';
import { bufferIO } from '../helpers/run.js';
import { buildProgram } from '../../src/main.js';

await prepareContext();

const root = mkdtempSync(join(tmpdir(), 'shipbook-completion-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const configDir = join(root, 'config');
mkdirSync(configDir, { mode: 0o700 });
writeFileSync(
  join(configDir, 'config.json'),
  JSON.stringify({
    version: 1,
    'default-profile': 'staging',
    profiles: {
      staging: {
        'base-url': 'https://staging.example.com/',
        senders: {
          'warehouse-syd': {
            first_name: 'A',
            last_name: 'B',
            email: 'a@example.com',
            phone: '0212345678',
            country: 'AU',
            postcode: '2000',
            city: 'Sydney',
            address_lines: ['1 George St'],
          },
        },
      },
      production: { 'base-url': 'https://api.example.com/' },
    },
  }),
  { mode: 0o600 },
);
const work = join(root, 'work');
mkdirSync(join(work, 'orders'), { recursive: true });
writeFileSync(join(work, 'orders', 'a.yaml'), '');
writeFileSync(join(work, 'orders', 'b.json'), '');
writeFileSync(join(work, 'orders', 'notes.txt'), '');
mkdirSync(join(work, '.hidden'));

/** Runs `shipbook <argv>` in-process and returns stdout. */
async function run(argv: string[], env: Record<string, string> = {}): Promise<string> {
  const io = bufferIO({ env: { SHIPBOOK_CONFIG_DIR: configDir, ...env } });
  const globals: GlobalOptions = {};
  const ctx = createContext(io, globals);
  const program = await buildProgram(ctx, globals);
  await program.parseAsync(['node', 'shipbook', ...argv]);
  return io.stdoutText();
}
const values = (out: string) =>
  out
    .trim()
    .split('\n')
    .filter((l) => !l.startsWith(':'))
    .map((l) => l.split('\t')[0]);

describe('completion', () => {
  it('prints a script for each shell', async () => {
    expect(await run(['completion', 'bash'])).toContain('complete -F __shipbook_complete shipbook');
    expect(await run(['completion', 'zsh'])).toContain('#compdef shipbook');
    expect(await run(['completion', 'fish'])).toContain('complete -c shipbook');
    expect((await run(['completion', 'powershell'])).toLowerCase()).toContain('register-argumentcompleter');
  });

  it('completes commands and subcommands', async () => {
    expect(values(await run(['complete', '--', 'or']))).toEqual(['order']);
    expect(values(await run(['complete', '--', 'order', '']))).toEqual(expect.arrayContaining(['create', 'accept', 'get', 'cancel']));
  });

  it('completes options of a subcommand, and the global ones', async () => {
    const opts = values(await run(['complete', '--', 'order', 'accept', '--']));
    expect(opts).toEqual(expect.arrayContaining(['--payment', '--payment-file', '--profile', '--json']));
  });

  it('completes profile names for --profile, after any command', async () => {
    expect(values(await run(['complete', '--', '--profile', '']))).toEqual(['production', 'staging', 'sandbox']);
    expect(values(await run(['complete', '--', 'quote', '--profile', 'st']))).toEqual(['staging']);
  });

  it('completes saved sender names of the profile', async () => {
    expect(values(await run(['complete', '--', 'config', 'sender', 'show', '']))).toEqual(['warehouse-syd']);
    expect(values(await run(['complete', '--', '--profile', 'production', 'config', 'sender', 'show', '']))).toEqual([]);
  });

  it('completes input file paths: directories and JSON/YAML files only', async () => {
    const cwd = process.cwd();
    process.chdir(work);
    try {
      expect(values(await run(['complete', '--', 'order', 'create', '']))).toEqual(['orders/']);
      expect(values(await run(['complete', '--', 'order', 'create', 'orders/']))).toEqual(['orders/a.yaml', 'orders/b.json']);
      expect(values(await run(['complete', '--', 'validate', 'orders/a']))).toEqual(['orders/a.yaml']);
    } finally {
      process.chdir(cwd);
    }
  });

  it('never fails on a broken configuration file', () => {
    const broken = join(root, 'broken');
    mkdirSync(broken);
    writeFileSync(join(broken, 'config.json'), '{', { mode: 0o600 });
    expect(profileCandidates({ SHIPBOOK_CONFIG_DIR: broken })).toEqual(['sandbox']);
    expect(senderCandidates({ SHIPBOOK_CONFIG_DIR: broken }, [])).toEqual([]);
    expect(pathCandidates('nope/', root)).toEqual([]);
  });
});
