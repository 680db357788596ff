import { describe, expect, it } from 'vitest';
import { batchProgress } from '../../src/output/batch.js';
import type { IOStreams } from '../../src/io.js';
import { bufferIO } from '../helpers/run.js';

/** IO whose stderr is a terminal of 100 columns, collecting what is written to it. */
function terminalIO(): { io: IOStreams; written: () => string } {
  const io = bufferIO({ tty: { stderr: true }, columns: 100 });
  return { io, written: () => io.stderrText() };
}

describe('the progress line of a batch that waits for the service', () => {
  it('says that the run waits for the service rate limit and for how long, then no more once it goes on', async () => {
    const { io, written } = terminalIO();
    const progress = batchProgress(io, { format: 'tsv', quiet: false }, 10);
    progress.paused(Date.now() + 2_000);
    await new Promise((r) => setImmediate(r));
    const line = written().split('\r\x1b[2K').at(-1)!;
    expect(line).toMatch(/0\/10 orders · 0 failed · 0\.0\/s · waiting [12]\.\ds for the service's rate limit/);
    progress.paused(undefined);
    await new Promise((r) => setImmediate(r));
    expect(written().split('\r\x1b[2K').at(-1)).not.toContain('waiting');
    progress.stop();
  });

  it('without a terminal, says it on a line of its own, not at every refusal', () => {
    const lines: string[] = [];
    const io = { ...terminalIO().io, stderrIsTTY: false, err: (t: string) => void lines.push(t) };
    const progress = batchProgress(io, { format: 'tsv', quiet: false }, 10);
    progress.paused(Date.now() + 1_000);
    progress.paused(Date.now() + 1_000);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^… waiting (0\.9|1\.0) s: the service asked to slow down \(rate limit\)\n$/);
    progress.stop();
  });
});
