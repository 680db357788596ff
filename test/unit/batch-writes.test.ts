import { openSync, closeSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { IOStreams } from '../../src/io.js';
import { batchWrites } from '../../src/output/batch.js';
import { exitWork } from '../../src/exit-work.js';

/** An IOStreams whose out and err record each write, on streams with the given file descriptors. */
function recordingIO(fds: { out?: number; err?: number } = {}): { io: IOStreams; writes: Array<[string, string]> } {
  const writes: Array<[string, string]> = [];
  const io = {
    stdout: { fd: fds.out },
    stderr: { fd: fds.err },
    stdoutIsTTY: false,
    stderrIsTTY: false,
    out: (text: string) => void writes.push(['out', text]),
    err: (text: string) => void writes.push(['err', text]),
  } as unknown as IOStreams;
  return { io, writes };
}

describe('the lines of a batch, written together', () => {
  it('writes the same text in fewer writes, each stream in its order, and gives the streams back', () => {
    // The flush is a timer: run it when due instead of sleeping past it.
    vi.useFakeTimers();
    const { io, writes } = recordingIO();
    const w = batchWrites(io, exitWork().add);
    for (let i = 1; i <= 3; i++) {
      io.err(`e${i}\n`);
      io.out(`o${i}\n`);
    }
    expect(writes).toEqual([]);
    vi.runOnlyPendingTimers();
    vi.useRealTimers();
    expect(writes).toEqual([
      ['err', 'e1\ne2\ne3\n'],
      ['out', 'o1\no2\no3\n'],
    ]);
    io.out('o4\n');
    w.stop();
    expect(writes.at(-1)).toEqual(['out', 'o4\n']);
    io.err('after\n');
    expect(writes.at(-1)).toEqual(['err', 'after\n']);
  });

  it('keeps the order across stdout and stderr when both go to the same file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'shipbook-writes-'));
    const fd = openSync(join(dir, 'both.txt'), 'w');
    try {
      const { io, writes } = recordingIO({ out: fd, err: fd });
      const w = batchWrites(io, exitWork().add);
      io.err('e1\n');
      io.err('e2\n');
      io.out('o1\n');
      io.err('e3\n');
      w.stop();
      expect(writes).toEqual([
        ['err', 'e1\ne2\n'],
        ['out', 'o1\n'],
        ['err', 'e3\n'],
      ]);
    } finally {
      closeSync(fd);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writes at once what reaches 64 KiB', () => {
    const { io, writes } = recordingIO();
    const w = batchWrites(io, exitWork().add);
    const line = `${'x'.repeat(1023)}\n`;
    for (let i = 0; i < 64; i++) io.out(line);
    expect(writes).toEqual([['out', line.repeat(64)]]);
    w.stop();
  });

  it('writes what is pending when the process exits before the batch stops, and nothing more once stopped', () => {
    const { io, writes } = recordingIO();
    const atExit = exitWork();
    const w = batchWrites(io, atExit.add);
    io.err('summary\n');
    expect(writes).toEqual([]);
    // A second Ctrl-C: main runs the exit work as the process exits.
    atExit.run();
    expect(writes).toEqual([['err', 'summary\n']]);
    w.stop();
    const again = exitWork();
    const stopped = batchWrites(io, again.add);
    stopped.stop();
    io.err('after\n');
    again.run();
    expect(writes.filter(([, t]) => t === 'after\n')).toHaveLength(1);
  });
});
