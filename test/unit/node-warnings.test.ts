import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { quietNodeWarnings } from '../../src/output/node-warnings.js';

describe('quietNodeWarnings', () => {
  it('replaces the default warning printer with the callback, and restores it', () => {
    const proc = new EventEmitter() as unknown as NodeJS.Process;
    const printed: string[] = [];
    proc.on('warning', (w: Error) => printed.push(`(node) ${w.name}: ${w.message}`));
    const seen: string[] = [];
    const restore = quietNodeWarnings((l) => seen.push(l), proc);
    const warning = Object.assign(new Error('Keys with collection values will be stringified'), { name: 'Warning' });
    proc.emit('warning', warning);
    expect(printed).toEqual([]);
    expect(seen).toEqual(['Warning: Keys with collection values will be stringified']);
    restore();
    proc.emit('warning', warning);
    expect(printed).toHaveLength(1);
    expect(seen).toHaveLength(1);
  });
});
