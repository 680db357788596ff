/**
 * Get quote: interface document, "Get quote: POST /quote/" and "Get quote, single package:
 * GET /quote/"; query parameter names for the package as docs/assumptions.md decides (`length`, `width`,
 * `height`, `weight`, `unit`, beside the route parameters, `value`, `insurance`, `currency`).
 * Authorisation optional. Both validate with the shared `quoteRequest` schema and answer
 * `result.services`, a list of quote service entries with prices as numbers.
 */
import type { Cents } from '../../schema/money.js';
import { safeParseHot } from '../../schema/hot.js';
import { schemaProblems } from '../../schema/issues.js';
import { quoteRequest, type QuoteRequest } from '../../schema/quote.js';
import { invalidRequest, validate, type FieldError, type Route } from '../http.js';
import { packageLimitProblems, ratesFor } from '../rates.js';
import { quoteServicesJson } from '../wire.js';

/** The insured value of a quote in cents: an amount, or `"true"` for the declared `value`; `undefined` when not insured. */
export function insuredValueOf(q: Pick<QuoteRequest, 'insurance' | 'value'>): Cents | undefined {
  if (q.insurance === undefined || q.insurance === 'false') return undefined;
  if (q.insurance === 'true') return q.value?.cents ?? 0;
  return q.insurance.cents > 0 ? q.insurance.cents : undefined;
}

/** The field of package `i` in a POST body. */
const packageFieldOfBody = (i: number): string => `packages[${i}]`;

/**
 * `result` of get quote for a validated request, as JSON text: `{"services": [entry, …]}`. Packages
 * over the sandbox's weight limit are a 400 on `packages[i]` (`packageField` renames the path, for GET).
 */
function quoteResultJson(q: QuoteRequest, packageField: (i: number) => string = packageFieldOfBody): string {
  const tooBig = packageLimitProblems(q.packages);
  if (tooBig.length > 0) throw invalidRequest(tooBig.map((p) => ({ field: packageField(p.index), message: p.message })));
  const route = {
    collectionCountry: q.collection_country,
    collectionPostcode: q.collection_postcode,
    deliveryCountry: q.delivery_country,
    deliveryPostcode: q.delivery_postcode,
  };
  return quoteServicesJson(ratesFor(route, q.packages, insuredValueOf(q)));
}

/** Route parameters of GET /quote/ (as in the POST body). */
const ROUTE_PARAMS = ['collection_country', 'collection_postcode', 'collection_city', 'delivery_country', 'delivery_postcode', 'delivery_city'] as const;
/** Package parameters of GET /quote/, plain (docs/assumptions.md). */
const PACKAGE_PARAMS = ['length', 'width', 'height', 'weight', 'unit'] as const;
/** The other parameters. */
const OTHER_PARAMS = ['value', 'insurance', 'currency'] as const;
const KNOWN_PARAMS: ReadonlySet<string> = new Set([...ROUTE_PARAMS, ...PACKAGE_PARAMS, ...OTHER_PARAMS]);

/**
 * Builds the quote request object from GET /quote/ query parameters: numeric package strings
 * become numbers, the single package becomes `packages[0]`. Unknown and repeated parameters are
 * reported as field errors.
 */
function quoteFromQuery(query: URLSearchParams): { request: Record<string, unknown>; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  for (const key of query.keys()) {
    if (seen.has(key)) continue;
    seen.add(key);
    if (!KNOWN_PARAMS.has(key)) errors.push({ field: key, message: 'unknown parameter' });
    else if (query.getAll(key).length > 1) errors.push({ field: key, message: 'given more than once' });
  }
  const get = (k: string) => query.get(k) ?? undefined;
  const request: Record<string, unknown> = {};
  for (const k of [...ROUTE_PARAMS, ...OTHER_PARAMS]) {
    const v = get(k);
    if (v !== undefined) request[k] = v;
  }
  const pkg: Record<string, unknown> = {};
  for (const k of PACKAGE_PARAMS) {
    const v = get(k);
    if (v === undefined) continue;
    pkg[k] = k !== 'unit' && /^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(v) ? Number(v) : v;
  }
  request.packages = [pkg];
  return { request, errors };
}

/** A field path of the quote request mapped back to its GET parameter (`packages[0].length` → `length`). */
function queryField(field: string): string {
  return field.replace(/^packages\[0\]\./, '');
}

/** Routes of get quote: `POST /quote/` (body) and `GET /quote/` (query), authorisation optional. */
export const quoteRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/quote/',
    stateful: false,
    auth: false,
    handler: (req) => ({ resultJson: quoteResultJson(validate(quoteRequest, req.body)) }),
  },
  {
    method: 'GET',
    pattern: '/quote/',
    stateful: false,
    auth: false,
    handler: (req) => {
      const { request, errors } = quoteFromQuery(req.query);
      const parsed = safeParseHot(quoteRequest, request);
      if (!parsed.success) {
        for (const p of schemaProblems(parsed.error)) errors.push({ field: queryField(p.path), message: p.message });
      }
      if (errors.length > 0 || !parsed.success) throw invalidRequest(errors);
      return { resultJson: quoteResultJson(parsed.data, () => 'weight') };
    },
  },
];
