/**
 * The two parts of undici that shipbook uses: its connection pool (`Agent`) and its `request`
 * API. They are bundled into dist/main.cjs from undici's own files, so a command that calls the
 * service reads none of undici's 110 files, and does not run the top level of the parts it never
 * uses (fetch, WebSocket, cookies, the mock and cache layers): about 40 ms of start-up on a
 * 2-core machine.
 *
 * The paths are undici's own files (`lib/dispatcher/agent.js`, `lib/api/api-request.js`); the
 * package has no `exports` map, so they resolve like its main entry. They are resolved when
 * dist/ is built, from the version in package-lock.json: a release that moves them fails the
 * build, never a user's run. `request` below is what undici's top-level `request` does with an
 * explicit dispatcher (undici/index.js, `makeDispatcher`), so callers keep undici's public types.
 */
import type * as Undici from 'undici';
// @ts-expect-error undici ships types for its entry point only; these are its Agent and api.request
import AgentImpl from 'undici/lib/dispatcher/agent.js';
// @ts-expect-error as above
import requestImpl from 'undici/lib/api/api-request.js';

/** undici's `Agent` (a keep-alive pool per origin); the type is undici's public one. */
export const Agent = AgentImpl as typeof Undici.Agent;
/** An instance of {@link Agent}. */
export type Agent = Undici.Agent;

/** The options of {@link request}: undici's, with the dispatcher required. */
type RequestOptions = Omit<Undici.Dispatcher.RequestOptions, 'origin' | 'path' | 'method'> & {
  method?: Undici.Dispatcher.HttpMethod;
  dispatcher: Undici.Dispatcher;
};

/**
 * One HTTP request through `dispatcher` (undici's `request(url, options)`): `url` gives the
 * origin, path and query; `method` defaults to GET, or PUT with a body, as in undici.
 * @returns undici's `ResponseData` (status, headers, body stream)
 * @throws undici's errors (`UND_ERR_*`), a transport error, or the signal's reason
 */
export function request(url: string | URL, options: RequestOptions): Promise<Undici.Dispatcher.ResponseData> {
  const { origin, path } = typeof url === 'string' ? splitUrl(url) : { origin: url.origin, path: `${url.pathname}${url.search}` };
  const { dispatcher, ...rest } = options;
  return (requestImpl as (this: Undici.Dispatcher, o: Undici.Dispatcher.RequestOptions) => Promise<Undici.Dispatcher.ResponseData>).call(dispatcher, {
    ...rest,
    origin,
    path,
    method: options.method ?? (options.body ? 'PUT' : 'GET'),
  });
}

/** The origin of the URL parsed last, and the same followed by `/`: the start of the next ones. */
let lastOrigin: { origin: string; prefix: string } | undefined;

/**
 * A path and query that WHATWG URL parsing leaves as they are: letters, digits, `-`, `_`, `~` and
 * `/` (no dot, so no dot segment), then a query of the same and `.`, `=`, `&`, `+`, `,`, `:`, `%`.
 */
const PLAIN_PATH = /^\/[A-Za-z0-9\-_~/]*(?:\?[A-Za-z0-9\-_~/.=&+,:%]*)?$/;

/**
 * The origin and the path with query of `url`, as `new URL(url)` gives them (`origin`,
 * `pathname` + `search`). A URL that starts with the origin of the one parsed last, written as
 * that origin writes it, and whose rest is a plain path ({@link PLAIN_PATH}) is split as it
 * stands: a batch sends thousands of requests to one service, and parsing each cost more than
 * the rest of building it. Any other URL is parsed.
 * @throws TypeError (`ERR_INVALID_URL`) for a string that is not a URL
 */
export function splitUrl(url: string): { origin: string; path: string } {
  const known = lastOrigin;
  if (known !== undefined && url.startsWith(known.prefix)) {
    const path = url.slice(known.prefix.length - 1);
    if (PLAIN_PATH.test(path)) return { origin: known.origin, path };
  }
  const u = new URL(url);
  if (u.origin !== 'null') lastOrigin = { origin: u.origin, prefix: `${u.origin}/` };
  return { origin: u.origin, path: `${u.pathname}${u.search}` };
}
