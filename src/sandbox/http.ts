/**
 * What a sandbox route module needs: the {@link Route} shape, the request a handler receives, the
 * reply it returns, and {@link SandboxHttpError} for error envelopes. Kept apart from `server.ts`
 * so route modules never import the server.
 *
 * Envelope: interface document, "Conventions" and "Errors" — every response is
 * `{message, code, result}` with `message` `OK` on success; docs/assumptions.md "error codes and bodies" —
 * `code` equals the HTTP status and `result.errors` lists `{field, message}` pairs.
 */
import type * as z from 'zod';
import { invalidRequest } from './errors.js';
export { SandboxHttpError, invalidRequest, notFound, conflict, type FieldError } from './errors.js';
import { safeParseHot } from '../schema/hot.js';
import { schemaProblems } from '../schema/issues.js';
import type { BookingRunner } from './booking.js';
import type { FaultInjector } from './faults.js';
import type { ResolvedSandboxOptions } from './options.js';
import type { SandboxState } from './state.js';

/** HTTP methods the sandbox routes. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** What a handler may use: the state, the resolved options, the clock and the booking runner. */
export interface SandboxContext {
  state: SandboxState;
  options: ResolvedSandboxOptions;
  /** The sandbox clock (`options.now`). */
  now(): Date;
  /** Schedules asynchronous booking completions and their callbacks. */
  bookings: BookingRunner;
  /** Injected faults (`shipbook sandbox --fail-rate …`), when any. */
  faults?: FaultInjector;
}

/** The request as a handler sees it. */
export interface RouteRequest {
  method: HttpMethod;
  /** The path without query, e.g. `/orders/ORD-AB12CD34/accept/`. */
  path: string;
  /** Path parameters named in the pattern, decoded, e.g. `{order_id: 'ORD-AB12CD34'}`. */
  params: Record<string, string>;
  query: URLSearchParams;
  /**
   * The content of the top-level `request` object of the JSON body (already unwrapped), or
   * `undefined` for routes without a body (and for an empty optional body).
   */
  body: unknown;
  /** True when valid credentials were sent (always true on routes with `auth: true`). */
  authenticated: boolean;
}

/**
 * A successful reply: HTTP status (200 unless told), and the envelope's `result`, as a value or
 * already as JSON text (`resultJson`, written as it is: for answers a route serialises faster
 * than `JSON.stringify` does). `message` defaults to `OK`.
 */
export type RouteReply = { status?: number; message?: string } & ({ result: unknown } | { resultJson: string });

/** A route handler: returns a reply or throws {@link SandboxHttpError}; anything else thrown becomes a 500 envelope. */
type RouteHandler = (req: RouteRequest, ctx: SandboxContext) => RouteReply | Promise<RouteReply>;

/**
 * One entry of the routing table.
 *
 * - `pattern`: a path with `:name` segments, e.g. `/orders/:order_id/accept/`; the trailing slash
 *   is optional when matching.
 * - `auth`: `true` — credentials required (missing or wrong → 401); `false` — optional (absent is
 *   fine, present but wrong → 401 when the sandbox has an API key).
 * - `body`: `required` (default for POST/PUT/PATCH) — a JSON object wrapped in `request`;
 *   `optional` — an empty body is fine; `none` (default for GET/DELETE) — the body is ignored.
 */
export interface Route {
  method: HttpMethod;
  pattern: string;
  auth: boolean;
  body?: 'required' | 'optional' | 'none';
  /**
   * `false` for routes that read no stored order or shipment (quotes): they run without the
   * store's transaction. Every other route runs inside one (one at a time, across processes on disk).
   */
  stateful?: boolean;
  handler: RouteHandler;
}

/**
 * Validates `body` (the content of `request`) with a shared schema, or throws a 400 naming every
 * problem with its path relative to `request` (e.g. `order.shipments[0].delivery.address_lines[1]`).
 */
export function validate<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = safeParseHot(schema, body);
  if (parsed.success) return parsed.data;
  throw invalidRequest(schemaProblems(parsed.error).map((p) => ({ field: p.path, message: p.message })));
}
