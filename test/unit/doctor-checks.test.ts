import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { PLAIN_HINTS } from '../../src/shell.js';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodeOf } from '../../src/errors.js';
import { ApiClient } from '../../src/api/client.js';
import { builtinSandboxProfile } from '../../src/config/profile.js';
import { checkCallbackBind, checkConfigFile, checkNode, checkSandboxState, checkService, doctorOutcome, runChecks } from '../../src/doctor/checks.js';
import { stateDirectory } from '../../src/dirs.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { hintText } from '../../src/output/hints.js';

const dirs: string[] = [];
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'shipbook-doctor-'));
  dirs.push(d);
  return d;
}
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('doctor checks', () => {
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  beforeAll(async () => {
    sandbox = await startSandbox({ apiKey: 'sk_test_doctor_1234', processingDelayMs: 50 });
  });
  afterAll(async () => sandbox.close());

  it('accepts Node 22 and later, warns on 20.19 to 21 (past its end of life), refuses older ones', () => {
    expect(checkNode('22.0.0').status).toBe('ok');
    expect(checkNode('24.1.0').status).toBe('ok');
    const eol = checkNode('20.19.0');
    expect(eol.status).toBe('warn');
    expect(eol.detail).toMatch(/end of life/);
    expect(exitCodeOf(doctorOutcome([eol]))).toBe(0);
    const old = checkNode('20.10.0');
    expect(old.status).toBe('fail');
    expect(hintText(old.fix, PLAIN_HINTS)).toMatch(/Node\.js 22/);
    // A machine's Node.js is a setting (exit 2), not a credential (exit 4).
    expect(exitCodeOf(doctorOutcome([old]))).toBe(2);
  });

  it('names the Node.js a single executable embeds', () => {
    expect(checkNode('22.23.3', true)).toMatchObject({ status: 'ok', detail: 'v22.23.3 (embedded in this executable)' });
  });

  it('reports a config file readable by others, with the chmod that fixes it', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'config.json'), '{}');
    chmodSync(dir, 0o700);
    chmodSync(join(dir, 'config.json'), 0o644);
    const { result } = checkConfigFile({ env: { SHIPBOOK_CONFIG_DIR: dir }, platform: 'linux' });
    expect(result.status).toBe('fail');
    expect(result.detail).toMatch(/readable by others/);
    expect(hintText(result.fix, PLAIN_HINTS)).toContain(`chmod 600 ${join(dir, 'config.json')}`);
    chmodSync(join(dir, 'config.json'), 0o600);
    expect(checkConfigFile({ env: { SHIPBOOK_CONFIG_DIR: dir }, platform: 'linux' }).result.status).toBe('ok');
  });

  it('reports a corrupt config file and skips the profile', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'config.json'), '{ not json', { mode: 0o600 });
    const results = await runChecks({
      env: { SHIPBOOK_CONFIG_DIR: dir, SHIPBOOK_STATE_DIR: join(dir, 'state') },
      api: () => Promise.reject(new Error('unused')),
    });
    const byId = Object.fromEntries(results.map((r) => [r.id, r]));
    expect(byId['config-file']!.status).toBe('fail');
    expect(byId['config-file']!.detail).toMatch(/not valid JSON/);
    expect(byId.profile!.status).toBe('skip');
    expect(exitCodeOf(doctorOutcome(results))).toBe(4);
  });

  it('says the key is accepted by a service that checks keys', async () => {
    const api = new ApiClient({ baseUrl: sandbox.url, apiKey: 'sk_test_doctor_1234' });
    const profile = { ...builtinSandboxProfile(), name: 'ci', sandbox: false, baseUrl: sandbox.url, apiKey: 'sk_test_doctor_1234' };
    const [base, key] = await checkService(profile, { api: async () => api });
    await api.close();
    expect(base!.status).toBe('ok');
    expect(base!.detail).toMatch(/answered/);
    expect(key!.status).toBe('ok');
  });

  it('says a wrong key is refused, with what to do', async () => {
    const api = new ApiClient({ baseUrl: sandbox.url, apiKey: 'sk_wrong_key_9999' });
    const profile = { ...builtinSandboxProfile(), name: 'ci', sandbox: false, baseUrl: sandbox.url };
    const [base, key] = await checkService(profile, { api: async () => api });
    await api.close();
    expect(base!.status).toBe('ok');
    expect(key!.status).toBe('fail');
    expect(key!.kind).toBe('auth');
    expect(hintText(key!.fix, PLAIN_HINTS)).toMatch(/--profile ci auth login/);
    expect(JSON.stringify([base, key])).not.toContain('sk_wrong_key_9999');
  });

  it('says an unreachable base URL does not answer, and skips the key', async () => {
    const closed = await new Promise<number>((resolve) => {
      const s: Server = createServer().listen(0, '127.0.0.1', () => {
        const port = (s.address() as { port: number }).port;
        s.close(() => resolve(port));
      });
    });
    const url = `http://127.0.0.1:${closed}/`;
    const api = new ApiClient({ baseUrl: url, apiKey: 'k' });
    const profile = { ...builtinSandboxProfile(), name: 'ci', sandbox: false, baseUrl: url };
    const [base, key] = await checkService(profile, { api: async () => api });
    await api.close();
    expect(base!.status).toBe('fail');
    expect(base!.kind).toBe('network');
    expect(key!.status).toBe('skip');
  });

  it('says when the callback port is taken', async () => {
    const busy: Server = await new Promise((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => resolve(s));
    });
    const port = (busy.address() as { port: number }).port;
    const taken = await checkCallbackBind({ host: '127.0.0.1', port });
    busy.close();
    expect(taken.status).toBe('fail');
    expect(taken.detail).toMatch(/in use/);
    expect((await checkCallbackBind()).status).toBe('ok');
  });

  it('finds the sandbox state directory (SHIPBOOK_STATE_DIR, else XDG_STATE_HOME/shipbook, else ~/.local/state/shipbook), and checks it', () => {
    expect(stateDirectory({ SHIPBOOK_STATE_DIR: '/x/y' })).toBe('/x/y');
    expect(stateDirectory({ XDG_STATE_HOME: '/s', HOME: '/h' }, 'linux')).toBe('/s/shipbook');
    expect(stateDirectory({ HOME: '/h' }, 'linux')).toBe('/h/.local/state/shipbook');
    const dir = tmp();
    expect(checkSandboxState({ SHIPBOOK_STATE_DIR: join(dir, 'none') }).status).toBe('ok');
    mkdirSync(join(dir, 'open'), { mode: 0o755 });
    chmodSync(join(dir, 'open'), 0o755);
    expect(checkSandboxState({ SHIPBOOK_STATE_DIR: join(dir, 'open') }, 'linux').status).toBe('warn');
    writeFileSync(join(dir, 'file'), '');
    expect(checkSandboxState({ SHIPBOOK_STATE_DIR: join(dir, 'file') }).status).toBe('fail');
  });
});
