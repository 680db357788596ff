/**
 * Every example in every command's help, run as printed: the help is read from the whole command
 * tree, each Examples line is run by bash (one shell per command, so `ORDER=$(…)` carries to the
 * next line) in a working directory holding the fixtures and the files the examples name, with
 * `shipbook` on PATH, logged in to a sandbox (`shipbook sandbox` in its own process). An example must never be refused as
 * usage (an unknown flag, a missing argument); one that can run here must succeed. The ones that
 * cannot are listed with the reason (an id invented for the example, a real service's URL).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { chmodSync, copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createContext, prepareContext, type GlobalOptions } from '../../src/context.js';
import { bufferIO } from '../helpers/run.js';
import { buildProgram } from '../../src/main.js';
import { shellQuote } from '../helpers/terminal.js';
import { BIN, ROOT, isolatedEnv } from '../helpers/cli.js';

await prepareContext();

/** The help of every command of the whole tree, by path (`order create`), the root as ''. */
async function everyHelp(): Promise<Map<string, string>> {
  const io = bufferIO();
  const globals: GlobalOptions = {};
  const program = await buildProgram(createContext(io, globals), globals);
  const helps = new Map<string, string>();
  const walk = (cmd: Command, path: string) => {
    const before = io.stdoutText().length;
    cmd.outputHelp();
    helps.set(path, io.stdoutText().slice(before));
    for (const sub of cmd.commands) if (!(sub as unknown as { _hidden: boolean })._hidden) walk(sub, path === '' ? sub.name() : `${path} ${sub.name()}`);
  };
  walk(program, '');
  return helps;
}

/** The example lines of a help text (comments dropped). */
function examplesOf(help: string): string[] {
  const at = help.search(/^Examples:$/m);
  if (at === -1) return [];
  const lines: string[] = [];
  for (const line of help.slice(at).split('\n').slice(1)) {
    if (!/^ {2}\S/.test(line)) break;
    if (!line.trim().startsWith('#')) lines.push(line.trim());
  }
  return lines;
}

/** Examples that cannot succeed here, by what they contain, and why. They must still parse. */
const CANNOT_SUCCEED_HERE: Array<[RegExp, string]> = [
  [/ORD-1A2B3C4D|ORD-…|SHP-1A2B3C4D|SHP-A\b|3f9c2a1b/, 'an id made up for the example, unknown to this sandbox'],
  [/example\.com/, 'a real service named by the example'],
  [/--profile (production|staging)|default-profile staging/, 'a profile of a real service'],
  [/^shipbook book +#|^shipbook shipment create +#|auth login|^shipbook sandbox reset$/, 'asks on a terminal, and the test has none'],
  [/\$KEY/, 'a key of a real service'],
  [/completion .*> ~|completion powershell|\$\{fpath/, 'writes into the shell set-up of the person running it'],
  [/--collection-from-service/, 'service data the sandbox gives only for consolidated mail from its own services'],
  [/config get api-key|config unset/, 'reads or removes a setting this fresh profile does not have'],
  [/--shard 2\/4/, 'a share of a batch that may hold no order'],
  [/127\.0\.0\.1:8788/, 'talks to the sandbox of the line before, left running in another terminal'],
  [/^shipbook validate fixtures\/( --json)?$/, 'fixtures/ holds the invalid examples on purpose: exit 2 is the point'],
  [/< scans\.txt/, 'the codes a scanner read at a dock, of parcels this directory never booked'],
];

/** Long-running commands: started, given two seconds, and stopped (exit 124 from timeout is success). */
const SERVERS = /^shipbook (callback listen|sandbox)(?! (status|reset))/;

/**
 * The fixed ports the examples name or bind by default: 8787 (`callback listen` and the
 * `--callback-url` receiver) and 8788 (`shipbook sandbox`). The test never binds them: a person
 * may have `callback listen` running on its documented port, and other test files run side by side.
 */
const FIXED_PORTS = [8787, 8788] as const;

/** A port that was free a moment ago on 127.0.0.1 (the kernel's choice). */
async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * An example as it is run: each fixed port it names becomes a free port of the test's own (the
 * same one for the whole command, so a line that talks to the server of a line before still finds
 * it), and a server example that binds a fixed port by default is given that free port.
 */
function withFreePorts(example: string, ports: ReadonlyMap<number, number>): string {
  let line = example.replace(/\b(8787|8788)\b/g, (p) => String(ports.get(Number(p)) ?? p));
  if (/^shipbook callback listen\b/.test(line) && !/--listen|--port/.test(line))
    line = line.replace(/^shipbook callback listen/, `shipbook callback listen --listen 127.0.0.1:${ports.get(8787)}`);
  if (/^shipbook sandbox(?! (status|reset))\b/.test(line) && !/--port/.test(line))
    line = line.replace(/^shipbook sandbox/, `shipbook sandbox --port ${ports.get(8788)}`);
  return line;
}

/** Commander's words for a command line it refuses. */
const USAGE =
  /error: (unknown option|unknown command|too many arguments|missing required argument|option '[^']*' argument missing|option '[^']*' argument '[^']*' is invalid)|\(run with --help for usage\)/;

/** `shipbook sandbox` in its own process for the whole file (the service the examples book on). */
let sandboxUrl: string;
let sandboxProcess: ChildProcess | undefined;
beforeAll(async () => {
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--json', '--no-log', '--delay', '20ms'], {
    cwd: ROOT,
    env: isolatedEnv(),
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  sandboxProcess = child;
  let out = '';
  child.stdout.setEncoding('utf8');
  sandboxUrl = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: string) => {
      out += d;
      if (out.includes('\n')) resolve((JSON.parse(out.slice(0, out.indexOf('\n'))) as { url: string }).url);
    });
    child.on('exit', (code) => reject(new Error(`the sandbox exited ${code}`)));
  });
});
afterAll(() => {
  sandboxProcess?.kill('SIGKILL');
});

// The fixed ports held for the whole file, as by a person who has `callback listen` and `shipbook
// sandbox` running on their documented ports: no example may need them. A port someone else holds
// already serves the same purpose.
const held: Server[] = [];
beforeAll(async () => {
  for (const port of FIXED_PORTS) {
    const server = createServer();
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (bound) held.push(server);
  }
});
afterAll(() => {
  for (const server of held) server.close();
});

/** The environment of one working directory: its own home, configuration and state. */
function envOf(dir: string): Record<string, string> {
  return {
    PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}`,
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, '.config'),
    SHIPBOOK_STATE_DIR: join(dir, 'state'),
    SHIPBOOK_SANDBOX_DELAY_MS: '50',
    NO_COLOR: '1',
  };
}

let template: string | undefined;

/** A configuration directory logged in to the sandbox (profile "dev", the default) with two saved senders. */
function loggedIn(): string {
  const dir = mkdtempSync(join(tmpdir(), 'shipbook-examples-config-'));
  const env = { ...envOf(dir), XDG_CONFIG_HOME: dir };
  const setup = [
    ['--profile', 'dev', 'auth', 'login', '--with-key', '--base-url', sandboxUrl],
    ['config', 'sender', 'set', 'warehouse', join(ROOT, 'fixtures/wizard/warehouse-syd.yaml')],
    ['config', 'sender', 'set', 'warehouse-syd', join(ROOT, 'fixtures/wizard/warehouse-syd.yaml')],
  ];
  for (const args of setup) {
    const r = spawnSync(process.execPath, [BIN, ...args], { env, input: 'sk_test_examples_0123456789', encoding: 'utf8' });
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  }
  return dir;
}

/**
 * A working directory with the fixtures and every file the examples name, set up as a person
 * who followed the README is: logged in to the sandbox (profile "dev", the default), with the
 * senders "warehouse" and "warehouse-syd" saved.
 */
function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'shipbook-examples-'));
  symlinkSync(join(ROOT, 'fixtures'), join(dir, 'fixtures'));
  mkdirSync(join(dir, 'bin'));
  writeFileSync(join(dir, 'bin', 'shipbook'), `#!/bin/sh\nexec ${shellQuote(process.execPath)} ${shellQuote(BIN)} "$@"\n`);
  chmodSync(join(dir, 'bin', 'shipbook'), 0o755);
  const order = parse(readFileSync(join(ROOT, 'fixtures/orders/domestic-syd-mel.yaml'), 'utf8')) as { order: { shipments: Array<Record<string, unknown>> } };
  writeFileSync(join(dir, 'order.json'), JSON.stringify(order));
  const sender = readFileSync(join(ROOT, 'fixtures/wizard/warehouse-syd.yaml'), 'utf8');
  writeFileSync(join(dir, 'warehouse.yaml'), sender);
  writeFileSync(join(dir, 'address.json'), JSON.stringify(parse(sender)));
  const partial = structuredClone(order);
  delete (partial.order.shipments[0]!.service as Record<string, unknown>).code;
  writeFileSync(join(dir, 'partial.yaml'), JSON.stringify(partial));
  mkdirSync(join(dir, 'orders'));
  copyFileSync(join(ROOT, 'fixtures/orders/domestic-syd-mel.yaml'), join(dir, 'orders', 'domestic-syd-mel.yaml'));
  copyFileSync(join(ROOT, 'fixtures/orders/insured-bne-per.yaml'), join(dir, 'orders', 'insured-bne-per.yaml'));
  const lines = [0, 1, 2, 3].map((i) => {
    const o = structuredClone(order);
    o.order.shipments[0]!.transient_id = `EX-${i}`;
    return JSON.stringify(o);
  });
  writeFileSync(join(dir, 'orders.ndjson'), `${lines.join('\n')}\n`);
  copyFileSync(join(ROOT, 'fixtures/orders/domestic-syd-mel.yaml'), join(dir, 'order.yaml'));
  mkdirSync(join(dir, 'schemas'));
  mkdirSync(join(dir, 'ci'));
  // The journal a CI job kept (`journal show --journal ci/journal.ndjson`): a file that does not exist is an error.
  writeFileSync(join(dir, 'ci', 'journal.ndjson'), '');
  // The configuration of a person who followed the README, made once (logging in runs the CLI).
  template ??= loggedIn();
  cpSync(template, join(dir, '.config'), { recursive: true });
  // cpSync keeps file modes but (on Node.js 24) makes directories with the default mode: restore the
  // 0700 shipbook gave its configuration directory, or doctor rightly reports it open to others.
  chmodSync(join(dir, '.config', 'shipbook'), 0o700);
  return dir;
}

interface Ran {
  example: string;
  code: number;
  stderr: string;
}

/** Runs the examples of one command in one bash, in order, each with its own stderr. */
async function runExamples(examples: string[]): Promise<Ran[]> {
  const dir = workspace();
  const ports = new Map<number, number>();
  for (const fixed of FIXED_PORTS) ports.set(fixed, await freePort());
  const script = examples
    .map((e, i) => {
      const run = withFreePorts(e, ports);
      for (const fixed of FIXED_PORTS) expect(run, `${e}: run on a fixed port`).not.toMatch(new RegExp(`\\b${fixed}\\b`));
      const line = SERVERS.test(e) ? `timeout 2 ${run}` : run;
      return `{\n${line}\n} > out.${i} 2> err.${i} < /dev/null; echo "$?" > code.${i}`;
    })
    .join('\n');
  const bash = spawn('bash', ['-c', `set -o pipefail\n${script}`], { cwd: dir, env: envOf(dir), stdio: 'ignore', timeout: 120_000 });
  const [code] = (await once(bash, 'exit')) as [number | null];
  expect(code).not.toBeNull();
  return examples.map((example, i) => ({
    example,
    code: Number(readFileSync(join(dir, `code.${i}`), 'utf8')),
    stderr: readFileSync(join(dir, `err.${i}`), 'utf8'),
  }));
}

const helps = await everyHelp();

// The commands' examples run side by side: most of the time is spent waiting on processes.
describe.concurrent('every example in the help runs as printed', () => {
  it('finds the examples of every command', () => {
    expect(helps.size).toBeGreaterThan(40);
    for (const [path, help] of helps) if (path !== 'help' && path !== '') expect(examplesOf(help).length, path).toBeGreaterThan(0);
  });

  for (const [path, help] of helps) {
    const examples = examplesOf(help);
    if (examples.length === 0) continue;
    it(`shipbook ${path || '(top level)'}`, async () => {
      for (const ran of await runExamples(examples)) {
        expect(ran.stderr, `${ran.example}: refused as usage`).not.toMatch(USAGE);
        const excuse = CANNOT_SUCCEED_HERE.find(([pattern]) => pattern.test(ran.example));
        if (excuse) continue;
        const ok = SERVERS.test(ran.example) ? ran.code === 124 || ran.code === 0 : ran.code === 0;
        expect(ok, `${ran.example}: exit ${ran.code}\n${ran.stderr}`).toBe(true);
      }
    }, 180_000);
  }
});

describe('option defaults in every help', () => {
  it('say no "(default: false)" of a flag, quote no one-word default, and never break a "(default: …)" across lines', async () => {
    for (const [path, help] of await everyHelp()) {
      expect(help, `shipbook ${path} --help`).not.toMatch(/\(default: (false|true)\)/);
      expect(help, `shipbook ${path} --help`).not.toMatch(/\(default: "[^\s"]+"\)/);
      for (const m of help.matchAll(/\(default:[^)]*\)/g)) expect(m[0], `shipbook ${path} --help`).not.toContain('\n');
    }
  });
});
