/**
 * `--dry-run` of a batch: what this run would do with each document of the inputs, from the
 * ledger's resume table (src/booking/engine.ts `resumeFrom`), in input order; nothing is sent.
 */
import { resumeFrom, type Resume } from '../engine.js';
import type { Shard } from '../../ledger/index.js';
import type { EntryState } from '../../ledger/index.js';
import { batchItems } from './check.js';
import type { BatchInputOptions } from './inputs.js';
import type { BatchResult, PlannedAction } from './results.js';

/** What this run would do with a document, from the resume table ({@link resumeFrom}). */
export function plannedAction(resume: Resume): PlannedAction {
  switch (resume.action) {
    case 'book':
      return { action: 'book' };
    case 'already_booked':
      return { action: 'already_booked', order_id: resume.orderId };
    case 'accept':
      return { action: 'continue', order_id: resume.orderId, stage: 'created' };
    case 'wait':
      return { action: 'continue', order_id: resume.orderId, stage: 'accepted' };
    case 'unknown':
      return { action: 'unknown' };
    case 'combine':
      return { action: 'combine', shipment_ids: resume.state.shipmentIds };
    case 'ended':
      return { action: 'ended', order_id: resume.orderId };
    case 'over_limit':
      return { action: 'over_limit', order_id: resume.orderId };
  }
}

/**
 * `--dry-run` of a batch: every input of this shard with its identity and what this run would do
 * with it according to the ledger (`get`) and this run's `--max-total` (`options.maxTotalCents`), in
 * input order; nothing is sent.
 */
export async function planBatch(
  inputs: readonly string[],
  options: { shard?: Shard; now: () => Date; input?: BatchInputOptions; maxTotalCents?: number },
  get: (id: string) => EntryState | undefined,
  onItem: (result: BatchResult) => void,
  counts?: { outsideShard: number },
): Promise<void> {
  for await (const item of batchItems(inputs, options.shard, options.now, options.input, counts)) {
    const base = { id: item.id, file: item.file, line: item.line, attempts: 0 };
    if (item.issues) {
      onItem({ ...base, status: 'invalid', plan: { action: 'invalid' }, issues: item.issues.filter((x) => x.severity === 'error') });
      continue;
    }
    const state = get(item.id);
    onItem({
      ...base,
      status: 'valid',
      plan: plannedAction(resumeFrom(state, options.maxTotalCents !== undefined ? { maxTotalCents: options.maxTotalCents } : {})),
      ...(state?.orderId ? { order_id: state.orderId } : {}),
      ...(item.warnings ? { warnings: item.warnings } : {}),
    });
  }
}
