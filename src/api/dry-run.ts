/**
 * Dry-run planning: a request as it would be sent, redacted, without sending it. A dry-run client
 * hands this record to its sink instead of sending; {@link planRequest} builds the same record
 * without a client, for the later steps of a flow (with a placeholder such as `<order id>` in the
 * path).
 */
import { normaliseBaseUrl } from './base-url.js';
import type { EndpointName, Method } from './endpoints.js';
import { maskSecret, redactText, redactValue } from './redact.js';
import { prepareRequest, type AuthSettings, type PreparedRequest, type RequestParts } from './request.js';

/**
 * A request as it would be sent, redacted: what dry-run reports. Headers hold the auth header as
 * `<prefix>****abcd`; the body is the wire form (in `request`) with card number and CVV masked.
 */
export interface PlannedRequest {
  /** Endpoint name (`createOrder` …). */
  endpoint: string;
  /** `true` when the endpoint changes nothing at the service. */
  safe: boolean;
  method: Method;
  /** Full URL, query included. */
  url: string;
  headers: Record<string, string>;
  /** The JSON body, redacted; absent for GET. */
  body?: unknown;
}

/** What {@link planRequest} needs of a client's settings: the base URL and how the key is sent. */
interface PlanTarget extends AuthSettings {
  baseUrl: string;
}

/** One call to plan: its endpoint's name and {@link RequestParts} (a placeholder may stand for an id). */
export interface PlanCall extends RequestParts {
  endpoint: EndpointName;
}

/** The redacted record of a prepared request: the key masked in the headers and scrubbed from the URL, the body's secrets masked. */
export function plannedRecord(auth: AuthSettings, p: PreparedRequest): PlannedRequest {
  const headers = { ...p.headers };
  const { apiKey, authHeader = 'Authorization', authPrefix = 'Bearer ' } = auth;
  if (apiKey) headers[authHeader.toLowerCase()] = `${authPrefix}${maskSecret(apiKey)}`;
  return {
    endpoint: p.endpoint.name,
    safe: p.endpoint.safe,
    method: p.method,
    url: redactText(p.url, [apiKey]),
    headers,
    ...(p.payload !== undefined ? { body: redactValue(JSON.parse(p.payload)) } : {}),
  };
}

/**
 * Plans a request without a client and without sending: the same redacted record a dry-run client
 * reports. For multi-step flows, later steps put a placeholder where an id is not known yet
 * (`params: { order_id: '<order id>' }`; the placeholder is kept readable in the URL).
 * @throws ConfigError (exit 4) for a malformed base URL; TypeError when the body is not JSON-serialisable
 */
export function planRequest(target: PlanTarget, call: PlanCall): PlannedRequest {
  const baseUrl = normaliseBaseUrl(target.baseUrl);
  const record = plannedRecord(target, prepareRequest(target, baseUrl, call.endpoint, call));
  return { ...record, url: record.url.replace(/%3C([^/]*?)%3E/gi, (_m, inner: string) => `<${decodeURIComponent(inner)}>`) };
}
