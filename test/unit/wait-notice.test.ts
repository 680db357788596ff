/** The waiters report data; src/output/wait-notice.ts words it (the sentences users have read so far). */
import { describe, expect, it } from 'vitest';
import { polledText, waitingText, waitNoticeLines } from '../../src/output/wait-notice.js';

describe('the words of a wait', () => {
  it('says how a wait runs, from its route, interval and timeout in ms', () => {
    expect(waitingText({ type: 'waiting', orderId: 'ORD-1', route: 'poll', pollMs: 2000, timeoutMs: 600_000 })).toBe(
      'waiting for the booking result of ORD-1 by polling every 2 s (up to 10 min)',
    );
    expect(waitingText({ type: 'waiting', orderId: 'ORD-1', route: 'callback', timeoutMs: 90_500 })).toBe(
      'waiting for the booking result of ORD-1 by callback (up to 90500 ms)',
    );
    expect(polledText({ type: 'polled', orderId: 'ORD-1', order: { id: 'ORD-1', status: 'ACC', shipments: [] } })).toBe(
      'waiting for the booking result of ORD-1 by polling (accepted)',
    );
  });

  it('words a callback the service overrules or does not bear out yet, with the callback message', () => {
    const failed = { word: 'failed', detail: 'no driver available', success: false };
    expect(waitNoticeLines({ kind: 'callback_overruled', orderId: 'ORD-1', claim: failed, serviceWord: 'processed' })).toEqual([
      { level: 'warning', text: 'the callback said order ORD-1 failed (no driver available), but the service shows it processed: going by the service' },
    ]);
    expect(waitNoticeLines({ kind: 'callback_overruled', orderId: 'ORD-1', claim: { word: 'processed', success: true }, serviceWord: 'cancelled' })).toEqual([
      { level: 'warning', text: 'the callback said order ORD-1 is processed, but the service shows it cancelled: going by the service' },
    ]);
    expect(waitNoticeLines({ kind: 'callback_ahead', orderId: 'ORD-1', claim: { word: 'processed', success: true }, serviceWord: 'accepted' })).toEqual([
      { level: 'warning', text: 'a callback says order ORD-1 is processed, but the service still shows it accepted: waiting for the service' },
    ]);
  });

  it('says why it polls, as dim lines, and a result found without a callback as a note', () => {
    expect(waitNoticeLines({ kind: 'loopback_unreachable', serviceOrigin: 'https://api.example.com', pollMs: 2000 }).map((l) => l.level)).toEqual([
      'dim',
      'dim',
    ]);
    expect(waitNoticeLines({ kind: 'processed_without_callback', orderId: 'ORD-1' })).toEqual([
      { level: 'note', text: 'no callback arrived, but fetch-order-data shows order ORD-1 processed' },
    ]);
    expect(waitNoticeLines({ kind: 'tracking_differs', callback: ['A1', 'A2'], service: ['B1'] })[0]!.text).toBe(
      "the callback's tracking numbers (A1, A2) differ from the service's (B1): showing the service's",
    );
  });
});
