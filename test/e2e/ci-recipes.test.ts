/**
 * The CI recipes of docs/ci.md: each keeps the journal when a job fails (a cache saved under
 * `if: always()` on GitHub Actions, `when: always` on GitLab), and each shell step they run works:
 * the steps are taken from the YAML of the page and run with bash in a scratch project (shipbook
 * installed as a dependency, orders in orders/) against the built-in sandbox, once per shard of
 * the matrix and then again as a re-run of every shard, which must book nothing twice.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../helpers/cli.js';

const page = readFileSync(join(ROOT, 'docs', 'ci.md'), 'utf8');
const yamlBlocks = [...page.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((m) => parse(m[1]!) as Record<string, any>);
const github = yamlBlocks.find((b) => b.jobs !== undefined)!;
const gitlab = yamlBlocks.find((b) => b.book?.script !== undefined)!;

const FIXTURES = readdirSync(join(ROOT, 'fixtures', 'orders')).filter((f) => f.endsWith('.yaml'));
/** Each order fixture three times (identical documents are distinct orders, by occurrence), so every shard of four has orders. */
const ORDERS = FIXTURES.flatMap((f) => [1, 2, 3].map((n) => ({ from: f, name: `${n}-${f}` })));
const work = mkdtempSync(join(tmpdir(), 'shipbook-ci-recipes-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A checkout of a project that depends on shipbook, for one job: package.json, node_modules/shipbook, orders/. */
function workspace(name: string): string {
  const dir = join(work, name);
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  mkdirSync(join(dir, 'orders'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'orders', private: true, devDependencies: { shipbook: '*' } }));
  symlinkSync(ROOT, join(dir, 'node_modules', 'shipbook'), 'dir');
  symlinkSync(join('..', 'shipbook', 'bin', 'shipbook.js'), join(dir, 'node_modules', '.bin', 'shipbook'));
  for (const o of ORDERS) copyFileSync(join(ROOT, 'fixtures', 'orders', o.from), join(dir, 'orders', o.name));
  return dir;
}

/** Runs one shell step as the CI runner would (bash, stop at the first failure) with nothing configured. */
function step(script: string, cwd: string, env: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync('bash', ['-eo', 'pipefail', '-c', script], {
    cwd,
    encoding: 'utf8',
    timeout: 120_000,
    env: {
      PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`,
      HOME: work,
      CI: 'true',
      NO_COLOR: '1',
      NO_UPDATE_NOTIFIER: '1',
      SHIPBOOK_STATE_DIR: join(work, 'state'),
      SHIPBOOK_CONFIG_DIR: join(work, 'config'),
      SHIPBOOK_CACHE_DIR: join(work, 'cache'),
      SHIPBOOK_SANDBOX_DELAY_MS: '100',
      ...env,
    },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface Report {
  orders: Array<{ id: string; status: string; order_id?: string }>;
  summary: { booked: number };
}

/**
 * Runs a recipe's shell steps for every shard, then again for every shard (a re-run of each job in
 * its workspace, the journal kept), and checks what was booked: every order once, nothing twice.
 */
function runMatrix(
  name: string,
  shards: number[],
  stepsOf: (shard: number) => { script: string; env: Record<string, string> }[],
  reportOf: (shard: number) => string,
): void {
  const booked = new Map<string, string>();
  for (const attempt of [1, 2]) {
    for (const shard of shards) {
      const dir = attempt === 1 ? workspace(`${name}-${shard}`) : join(work, `${name}-${shard}`);
      for (const { script, env } of stepsOf(shard)) {
        // Each recipe books on a built-in sandbox of its own: the same orders booked by the other
        // recipe's matrix would otherwise be (rightly) already booked.
        const r = step(script, dir, { SHIPBOOK_STATE_DIR: join(work, `${name}-state`), ...env });
        expect(r.status, `${name} shard ${shard}, attempt ${attempt}: ${script}\n${r.stderr}`).toBe(0);
      }
      const report = JSON.parse(readFileSync(join(dir, reportOf(shard)), 'utf8')) as Report;
      if (attempt === 1) {
        for (const o of report.orders) {
          expect(o.status, `${o.id} in shard ${shard}`).toBe('booked');
          expect(booked.has(o.id), `${o.id} is in one shard only`).toBe(false);
          booked.set(o.id, o.order_id!);
        }
      } else {
        // the re-run finds its journal: nothing is booked again, every order is the one booked before
        expect(report.summary.booked).toBe(0);
        for (const o of report.orders) expect(o.order_id, o.id).toBe(booked.get(o.id));
      }
    }
  }
  expect(booked.size).toBe(ORDERS.length);
}

/** Shell steps that only install (`npm ci`): shipbook is already installed in the scratch workspace. */
const installs = (script: string) => script.trim() === 'npm ci';

describe('the GitHub Actions recipe', () => {
  const job = github.jobs.book as { strategy: { matrix: { shard: number[] } }; steps: Array<Record<string, any>> };

  it('saves the journal whatever happened and restores it in a re-run', () => {
    const restore = job.steps.findIndex((s) => String(s.uses).startsWith('actions/cache/restore@'));
    const book = job.steps.findIndex((s) => s.name === 'book');
    const save = job.steps.findIndex((s) => String(s.uses).startsWith('actions/cache/save@'));
    expect(restore).toBeGreaterThan(-1);
    expect(restore).toBeLessThan(book);
    expect(save).toBeGreaterThan(book);
    expect(job.steps[save]!.if).toBe('always()');
    expect(job.steps[save]!.with.path).toBe('.shipbook');
    expect(job.steps[restore]!.with.path).toBe('.shipbook');
    // each attempt saves under its own key (an entry cannot be overwritten); a re-run restores by prefix
    expect(job.steps[save]!.with.key).toContain('${{ github.run_attempt }}');
    expect(String(job.steps[save]!.with.key).startsWith(job.steps[restore]!.with['restore-keys'])).toBe(true);
    expect(job.steps[book]!.run).toContain('--journal .shipbook/');
    expect(job.steps.filter((s) => s.if === 'always()').map((s) => String(s.uses).split('@')[0])).toEqual(['actions/cache/save', 'actions/upload-artifact']);
  });

  it('runs its shell steps for every shard, and a re-run books nothing twice', () => {
    const shards = job.strategy.matrix.shard;
    expect(shards).toEqual([1, 2, 3, 4]);
    runMatrix(
      'github',
      shards,
      (shard) =>
        job.steps
          .filter((s) => typeof s.run === 'string' && !installs(s.run))
          .map((s) => {
            const script = (s.run as string).replace(/\$\{\{\s*matrix\.shard\s*\}\}/g, String(shard));
            expect(script, 'every expression of a run step is known').not.toContain('${{');
            // The rehearsal: the step's env (the service's secrets) is left out, so nothing is configured.
            return { script, env: {} };
          }),
      (shard) => `report-${shard}.json`,
    );
  }, 240_000);
});

describe('the GitLab CI recipe', () => {
  const job = gitlab.book as { parallel: number; cache: Record<string, any>; artifacts: Record<string, any>; script: string[] };

  it('keeps the journal in a cache and the artifacts when the job fails', () => {
    expect(job.cache.when).toBe('always');
    expect(job.cache.paths).toContain('.shipbook/');
    expect(job.cache.key).toContain('$CI_NODE_INDEX');
    expect(job.artifacts.when).toBe('always');
    expect(job.script.join('\n')).toContain('--journal .shipbook/');
  });

  it('runs its script for every job of the matrix, and a retry books nothing twice', () => {
    const shards = Array.from({ length: job.parallel }, (_, i) => i + 1);
    expect(shards).toHaveLength(4);
    runMatrix(
      'gitlab',
      shards,
      (shard) =>
        job.script.filter((s) => !installs(s)).map((script) => ({ script, env: { CI_NODE_INDEX: String(shard), CI_NODE_TOTAL: String(job.parallel) } })),
      (shard) => `report-${shard}.json`,
    );
  }, 240_000);
});
