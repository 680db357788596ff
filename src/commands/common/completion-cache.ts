/**
 * What completion offers that only an earlier command knows, read from the state directory: the
 * service codes of the last quote (for `--service` and `service show`) and the order ids the
 * built-in sandbox holds (for `order get|accept|cancel`). Its own small module, so a quote does not
 * load the completion machinery.
 */
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Where `shipbook quote` leaves the service codes it was offered. */
function lastQuoteFile(stateDir: string): string {
  return join(stateDir, 'completion', 'last-quote-services.json');
}

/**
 * Remembers the service codes of a quote, offered by completion for `--service` and `service
 * show`. Never fails: completion is a help, not a reason to stop a quote.
 */
export function rememberServiceCodes(stateDir: string, codes: readonly string[]): void {
  try {
    mkdirSync(dirname(lastQuoteFile(stateDir)), { recursive: true, mode: 0o700 });
    writeFileSync(lastQuoteFile(stateDir), `${JSON.stringify({ codes })}\n`, { mode: 0o600 });
  } catch {
    // an unwritable state directory only means no codes to complete
  }
}

/** The service codes of the last quote (none when there was none or the file is unreadable). */
export function serviceCandidates(stateDir: string): string[] {
  try {
    const data = JSON.parse(readFileSync(lastQuoteFile(stateDir), 'utf8')) as { codes?: unknown };
    return Array.isArray(data.codes) ? data.codes.filter((c): c is string => typeof c === 'string' && /^\S+$/.test(c)) : [];
  } catch {
    return [];
  }
}

/**
 * Order ids the built-in sandbox holds (its state directory keeps one `ORD-….json` per order),
 * newest first, at most 50: offered for `order get|accept|cancel <order-id>`. A service elsewhere
 * is not asked: completion never makes a request.
 */
export function sandboxOrderIds(stateDir: string): string[] {
  try {
    const dir = join(stateDir, 'orders');
    return readdirSync(dir)
      .filter((n) => /^ORD-[\w-]+\.json$/.test(n))
      .map((n) => ({ id: n.slice(0, -'.json'.length), at: statSync(join(dir, n)).mtimeMs }))
      .sort((a, b) => b.at - a.at)
      .slice(0, 50)
      .map((o) => o.id);
  } catch {
    return [];
  }
}
