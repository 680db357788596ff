/**
 * Every shell example of the manual runs as written: each ```sh, ```bash or ```console block of
 * README.md and of the guides in docs/ (the generated docs/reference/ is run by
 * help-examples.test.ts) runs in bash against the built-in sandbox, in a scratch directory with
 * its own state and configuration, `shipbook` on PATH being the built bin/shipbook.js. The
 * blocks of one page run in order in one directory; pages run side by side in a few workers.
 *
 * Beside a block, an HTML comment on the line before it says what the runner must know:
 * `<!-- exit: N -->` the exit code when it is not 0, `<!-- sandbox -->` a `shipbook sandbox`
 * is running at the URL the block writes as http://127.0.0.1:8788/, and
 * `<!-- not-run: reason -->` the block cannot run here (the runner lists them).
 */
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { BIN, ROOT } from '../helpers/cli.js';

/** One shell block of a page, with what the comment before it says. */
interface Example {
  page: string;
  line: number;
  script: string;
  exit: number;
  sandbox: boolean;
  notRun?: string;
}

const SHELL_FENCE = /^```(sh|bash|console)\s*$/;
const MARKER = /^<!--\s*(exit:\s*(\d+)|sandbox|not-run:\s*(.+?))\s*-->$/;
/** The URL a block that needs a running `shipbook sandbox` writes for it (the sandbox's default port). */
const SANDBOX_URL = 'http://127.0.0.1:8788/';

/** README.md and every page of docs/ except the generated reference, as paths from the root. */
function manualPages(): string[] {
  const pages = ['README.md'];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (path !== join('docs', 'reference')) walk(path);
      } else if (entry.name.endsWith('.md')) pages.push(path);
    }
  };
  walk('docs');
  return pages;
}

/** The shell blocks of one page, and the markers that stand before no shell block (mistakes). */
function extractExamples(page: string, markdown: string): { examples: Example[]; strayMarkers: number[] } {
  const lines = markdown.split('\n');
  const examples: Example[] = [];
  const strayMarkers: number[] = [];
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (fence !== undefined) {
      if (line.startsWith('```')) fence = undefined;
      continue;
    }
    if (line.startsWith('```')) {
      fence = line;
      if (!SHELL_FENCE.test(line)) continue;
      const example: Example = { page, line: i + 1, script: '', exit: 0, sandbox: false };
      for (let m = i - 1; m >= 0 && MARKER.test(lines[m]!); m--) {
        const [, , exit, notRun] = MARKER.exec(lines[m]!)!;
        if (exit !== undefined) example.exit = Number(exit);
        else if (notRun !== undefined) example.notRun = notRun;
        else example.sandbox = true;
      }
      let end = i + 1;
      while (end < lines.length && !lines[end]!.startsWith('```')) end++;
      example.script = lines.slice(i + 1, end).join('\n');
      examples.push(example);
      continue;
    }
    if (MARKER.test(line)) {
      let next = i + 1;
      while (next < lines.length && MARKER.test(lines[next]!)) next++;
      if (!SHELL_FENCE.test(lines[next] ?? '')) strayMarkers.push(i + 1);
    }
  }
  return { examples, strayMarkers };
}

const pages = manualPages().map((page) => ({ page, ...extractExamples(page, readFileSync(join(ROOT, page), 'utf8')) }));
const examples = pages.flatMap((p) => p.examples);
const runnable = examples.filter((e) => e.notRun === undefined);

/** What one block did. */
interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

const work = mkdtempSync(join(tmpdir(), 'shipbook-doc-examples-'));
const outcomes = new Map<Example, Outcome>();
const sandboxes: Sandbox[] = [];

function runBash(script: string, cwd: string, env: Record<string, string>): Promise<Outcome> {
  return new Promise((resolvePromise) => {
    // a group of its own, so a block that does not end (a server) is stopped with all it started
    const child = spawn('bash', ['-eo', 'pipefail', '-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      stderr += '\n(stopped after 45 s)';
      process.kill(-child.pid!, 'SIGKILL');
    }, 45_000);
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
}

/** Runs the blocks of one page in order, in a scratch directory of its own. */
async function runPage(page: string, blocks: Example[]): Promise<void> {
  const dir = join(work, page.replace(/[/.]/g, '-'));
  mkdirSync(dir, { recursive: true });
  cpSync(join(ROOT, 'fixtures'), join(dir, 'fixtures'), { recursive: true });
  const bin = join(dir, '.bin');
  mkdirSync(bin);
  symlinkSync(BIN, join(bin, 'shipbook'));
  chmodSync(BIN, 0o755);
  const env: Record<string, string> = {
    PATH: [bin, dirname(process.execPath), process.env.PATH ?? ''].join(delimiter),
    HOME: dir,
    LANG: 'C.UTF-8',
    NO_COLOR: '1',
    NO_UPDATE_NOTIFIER: '1',
    SHIPBOOK_STATE_DIR: join(dir, '.state'),
    SHIPBOOK_CONFIG_DIR: join(dir, '.config'),
    SHIPBOOK_CACHE_DIR: join(dir, '.cache'),
    SHIPBOOK_SANDBOX_DELAY_MS: '100',
  };
  let sandbox: Sandbox | undefined;
  for (const block of blocks) {
    let script = block.script;
    if (block.sandbox) {
      if (!sandbox) {
        sandbox = await startSandbox({ processingDelayMs: 100, stateDir: join(dir, '.sandbox'), log: () => {} });
        sandboxes.push(sandbox);
      }
      script = script.replaceAll(SANDBOX_URL, sandbox.url);
    }
    outcomes.set(block, await runBash(script, dir, env));
  }
}

beforeAll(async () => {
  expect(existsSync(join(ROOT, 'dist'))).toBe(true);
  const queue = pages.filter((p) => p.examples.some((e) => e.notRun === undefined));
  // a few pages at a time: the machine running CI may have two cores
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift())
      await runPage(
        next.page,
        next.examples.filter((e) => e.notRun === undefined),
      );
  };
  await Promise.all([worker(), worker(), worker()]);
  const notRun = examples.filter((e) => e.notRun !== undefined);
  console.log(
    [
      `manual examples: ${examples.length} shell blocks in ${pages.length} pages, ${runnable.length} run, ${notRun.length} not run:`,
      ...notRun.map((e) => `  ${e.page}:${e.line}  ${e.notRun}`),
    ].join('\n'),
  );
}, 240_000);

afterAll(async () => {
  await Promise.all(sandboxes.map((s) => s.close()));
});

describe('the examples of the manual', () => {
  it('finds the shell blocks of README.md and docs/, and every marker stands before one', () => {
    expect(pages.map((p) => p.page)).toEqual(expect.arrayContaining(['README.md', join('docs', 'sandbox.md'), join('docs', 'batch.md')]));
    expect(pages.some((p) => p.page.startsWith(join('docs', 'reference')))).toBe(false);
    expect(examples.length).toBeGreaterThan(35);
    expect(runnable.length).toBeGreaterThan(20);
    for (const p of pages) expect(p.strayMarkers, `${p.page}: a marker before no shell block`).toEqual([]);
    for (const e of examples) expect(e.notRun === undefined || e.notRun.length > 5, `${e.page}:${e.line} says why it cannot run`).toBe(true);
  });

  it.each(runnable.map((e) => [`${e.page}:${e.line}`, e] as const))('%s runs as written', (_, example) => {
    const outcome = outcomes.get(example);
    expect(outcome, 'the block was run').toBeDefined();
    expect(outcome!.code, `${example.script}\n--- stdout\n${outcome!.stdout}\n--- stderr\n${outcome!.stderr}`).toBe(example.exit);
  });

  it('links between the pages lead to a page and a heading that exist', () => {
    const slug = (heading: string) =>
      heading
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\- _]/gu, '')
        .replace(/ /g, '-');
    const anchorsOf = (page: string) => {
      const found = new Set<string>();
      let inFence = false;
      for (const line of readFileSync(join(ROOT, page), 'utf8').split('\n')) {
        if (line.startsWith('```')) inFence = !inFence;
        const m = inFence ? null : /^#{1,6}\s+(.*)$/.exec(line);
        if (m) found.add(slug(m[1]!));
      }
      return found;
    };
    const broken: string[] = [];
    for (const { page } of pages) {
      const markdown = readFileSync(join(ROOT, page), 'utf8');
      for (const [, target] of markdown.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [file, anchor] = target!.split('#') as [string, string | undefined];
        const path = file === '' ? page : relative(ROOT, join(ROOT, dirname(page), file));
        if (!existsSync(join(ROOT, path))) broken.push(`${page}: ${target} (no ${path})`);
        else if (anchor !== undefined && path.endsWith('.md') && !anchorsOf(path).has(anchor)) broken.push(`${page}: ${target} (no heading #${anchor})`);
      }
    }
    expect(broken).toEqual([]);
  });
});
