/**
 * Helpers for the validation tests: valid documents read from the fixtures, and a way to run a
 * document through the same validation `shipbook validate` uses (parse, detect, check).
 */
import { settleFixturePickups } from '../helpers/pickup-days.js';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { InputIssue } from '../../src/errors.js';
import type { KindName } from '../../src/input/kinds.js';
import { parseInput } from '../../src/input/parse.js';
import { checkDocument, validateBytes, type FileReport } from '../../src/input/validate.js';

/** The fixed clock of these tests: 21 November 2026, midday UTC. */
export const NOW = new Date('2026-11-21T12:00:00Z');

/** A fixture file parsed (comments dropped), as a plain object to mutate. */
export function fixture(path: string): any {
  return settleFixturePickups(parse(readFileSync(path, 'utf8')));
}

/** A valid domestic order (fixtures/orders/domestic-syd-mel.yaml) and its first shipment. */
export function order(): { doc: any; s: any } {
  const doc = fixture('fixtures/orders/domestic-syd-mel.yaml');
  return { doc, s: doc.order.shipments[0] };
}

/** Validates `doc` (written as JSON) as `validate` does, with the fixed clock. */
export function check(doc: unknown, kind?: KindName, file = 'doc.json'): FileReport {
  return validateBytes(file, Buffer.from(JSON.stringify(doc)), { kind, now: () => NOW });
}

/** The errors of `doc` as `path: message`. */
export function errors(doc: unknown, kind?: KindName): string[] {
  return check(doc, kind)
    .issues.filter((i) => i.severity === 'error')
    .map((i) => `${i.path}: ${i.message}`);
}

/** The warnings of `doc` as `path: message`. */
export function warnings(doc: unknown, kind?: KindName): string[] {
  return check(doc, kind)
    .issues.filter((i: InputIssue) => i.severity === 'warning')
    .map((i) => `${i.path}: ${i.message}`);
}

/** The wire-ready value of a valid `doc` (throws with the problems when it is not valid). */
export function value(doc: unknown, kind?: KindName): any {
  const parsed = parseInput('doc.json', Buffer.from(JSON.stringify(doc)));
  const result = checkDocument(parsed, { kind, now: () => NOW });
  if (result.value === undefined) throw new Error(result.issues.map((i) => `${i.path}: ${i.message}`).join('\n'));
  return result.value;
}
