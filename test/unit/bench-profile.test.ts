// bench/profile.mjs: the split of a CPU profile by activity that bench/RESULTS.md gives as the
// evidence of a missed throughput target. A synthetic profile with known stacks.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

interface Summary {
  busyMs: number;
  totalMs: number;
  activities?: Array<{ name: string; ms: number }>;
}
interface ProfileModule {
  BOOKING_ACTIVITIES: Array<{ name: string; frame: RegExp }>;
  summariseProfile(file: string, root: string, activities?: unknown): Summary;
}
const loadProfileModule = async () => (await import('../../bench/profile.mjs' as string)) as ProfileModule;

/** A frame of a source file outside dist/ (named `fn (src/…:line)` by the summary). */
const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 9, columnNumber: 0, scriptId: '0' });

/**
 * Stacks (root first) with the milliseconds sampled at their top frame. Each stack becomes a chain
 * of nodes under the profile's root.
 */
function profileOf(stacks: Array<{ frames: ReturnType<typeof frame>[]; ms: number }>) {
  const nodes: Array<{ id: number; callFrame: ReturnType<typeof frame>; children: number[] }> = [{ id: 1, callFrame: frame('(root)', ''), children: [] }];
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  for (const { frames, ms } of stacks) {
    let parent = nodes[0]!;
    for (const f of frames) {
      const node = { id: nodes.length + 1, callFrame: f, children: [] };
      nodes.push(node);
      parent.children.push(node.id);
      parent = node;
    }
    // One sample of `ms` milliseconds (timeDeltas are in microseconds).
    samples.push(parent.id);
    timeDeltas.push(ms * 1000);
  }
  return { nodes, samples, timeDeltas, startTime: 0, endTime: 0 };
}

describe('bench/profile.mjs: busy time by activity', () => {
  it('counts each sample for the first activity of the list with a frame on its stack, the rest last, idle nowhere', async () => {
    const { BOOKING_ACTIVITIES, summariseProfile } = await loadProfileModule();
    const src = (path: string) => `/repo/src/${path}`;
    const undici = '/repo/node_modules/undici/lib/dispatcher/client-h1.js';
    const profile = profileOf([
      // the input check: a zod parse inside it is the check
      {
        frames: [
          frame('checkBatch', src('batch/check.ts')),
          frame('safeParseHot', src('schema/hot.ts')),
          frame('parse', '/repo/node_modules/zod/v4/core/parse.js'),
        ],
        ms: 5,
      },
      // reading an answer, below the API client's attempt
      { frames: [frame('#attempt', src('api/client.ts')), frame('readAnswer', src('api/answer.ts')), frame('parse', '')], ms: 7 },
      // undici below the client's attempt: HTTP comes before the API client in the list
      { frames: [frame('#attempt', src('api/client.ts')), frame('request', src('http/undici.ts')), frame('writeH1', undici)], ms: 11 },
      { frames: [frame('#attempt', src('api/client.ts'))], ms: 2 },
      // a journal write below a booking event
      {
        frames: [
          frame('bookDocument', src('booking/book.ts')),
          frame('onEvent', src('booking/steps.ts')),
          frame('append', src('ledger/file/journal.ts')),
          frame('writeString', ''),
        ],
        ms: 3,
      },
      { frames: [frame('(garbage collector)', '')], ms: 4 },
      { frames: [frame('bookDocument', src('booking/book.ts'))], ms: 6 },
      { frames: [frame('(idle)', '')], ms: 100 },
    ]);
    const file = join(mkdtempSync(join(tmpdir(), 'shipbook-profile-')), 'CPU.cpuprofile');
    writeFileSync(file, JSON.stringify(profile));

    const summary = summariseProfile(file, '/nonexistent', BOOKING_ACTIVITIES);
    // In the list's order: GC, the check, reading answers, the journal, HTTP, the API client, V8 internals; the rest last.
    expect((summary.activities ?? []).map((a) => a.name)).toEqual([...BOOKING_ACTIVITIES.map((a) => a.name), expect.stringMatching(/^the rest/)]);
    expect((summary.activities ?? []).map((a) => a.ms)).toEqual([4, 5, 7, 3, 11, 2, 0, 6]);
    expect(summary.busyMs).toBe(38);
    expect(summary.totalMs).toBe(138);
    expect((summary.activities ?? []).reduce((sum, a) => sum + a.ms, 0)).toBe(summary.busyMs);
  });

  it('gives no activities unless asked', async () => {
    const { summariseProfile } = await loadProfileModule();
    const file = join(mkdtempSync(join(tmpdir(), 'shipbook-profile-')), 'CPU.cpuprofile');
    writeFileSync(file, JSON.stringify(profileOf([{ frames: [frame('bookDocument', '/repo/src/booking/book.ts')], ms: 1 }])));
    expect(summariseProfile(file, '/nonexistent').activities).toBeUndefined();
  });
});
