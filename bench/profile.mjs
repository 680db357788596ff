// Where the time of a CPU profile (`node --cpu-prof`) goes, by area: the benchmark profiles the
// shipbook process of each figure that misses its target and writes this summary under the table
// in bench/RESULTS.md (a missed target comes with a profile as evidence).
//
// Positions in dist/main.cjs are mapped back to src/ and node_modules/ through its source map
// (node:module's SourceMap), so the areas are shipbook's own modules and its dependencies.
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { join } from 'node:path';

/** The area a source file belongs to: `src/<dir>/<file>`, a package name, or a kind of Node.js work. */
function areaOf(source) {
  const nm = source.lastIndexOf('node_modules/');
  if (nm !== -1) {
    const parts = source.slice(nm + 'node_modules/'.length).split('/');
    return `dependency ${parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]}`;
  }
  const src = source.indexOf('src/');
  return src !== -1 ? source.slice(src) : source;
}

/** Native frames that are system calls or work outside JavaScript, by their profiler name. */
const NATIVE = {
  '(idle)': 'idle (waiting for I/O or timers)',
  '(garbage collector)': 'garbage collection',
  '(program)': 'V8 and Node.js internals (program)',
};

/**
 * What a batch's client process does, for {@link summariseProfile}'s `activities`: a sample counts
 * for the first activity of this list with a frame on its stack (a zod parse inside the input
 * check is the check; one inside the reading of an answer is that), else for "the rest".
 */
export const BOOKING_ACTIVITIES = [
  { name: 'garbage collection', frame: /^\(garbage collector\)$/ },
  {
    name: 'checking every input before the first request (read, validate, identity)',
    frame: /^(checkBatch|batchItems) \(src\/batch\/(runner|check)\.ts|\(src\/batch\/inputs\.ts:/,
  },
  { name: "reading the service's answers (JSON.parse, the envelope and result schemas)", frame: /^readAnswer \(src\/api\/answer\.ts/ },
  { name: 'the journal (records, writes, fsync)', frame: /\(src\/(ledger\/file\/(journal|ledger)|booking\/steps)\.ts:/ },
  { name: 'HTTP (undici: requests, sockets, parsing answers)', frame: /\((dependency undici|src\/http\/)|node:net:|node:internal\/stream_base_commons/ },
  { name: 'the API client around each request (src/api/: deadline, signals, retries, errors)', frame: /\(src\/api\// },
  { name: 'V8 and Node.js internals (program)', frame: /^\(program\)$/ },
];

/**
 * Summarises the CPU profile `file` of a process that ran `root`/dist/main.cjs.
 * With `activities` (e.g. {@link BOOKING_ACTIVITIES}: `{name, frame: RegExp}` tested against each
 * frame's name as in `functions`), the busy time is also split by activity: each sample counts for
 * the first activity with a frame on its stack, or for "the rest".
 * @returns {{totalMs: number, busyMs: number, areas: Array<{area: string, ms: number}>, functions: Array<{name: string, ms: number}>, activities?: Array<{name: string, ms: number}>}}
 *   areas and functions by self time, most first; activities in the order given, the rest last;
 *   `busyMs` excludes idle
 */
export function summariseProfile(file, root, activities = undefined) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  // The source maps of dist/main.cjs and of its chunks (dist/chunks/*.cjs), by the file's URL end.
  const maps = new Map();
  const mapOf = (url) => {
    const m = /dist\/(main|chunks\/[a-z0-9-]+)\.cjs$/.exec(url);
    if (m === null) return undefined;
    if (!maps.has(m[1])) {
      try {
        maps.set(m[1], new SourceMap(JSON.parse(readFileSync(join(root, 'dist', `${m[1]}.cjs.map`), 'utf8'))));
      } catch {
        maps.set(m[1], undefined);
      }
    }
    return maps.get(m[1]);
  };
  const self = new Map();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const areas = new Map();
  const functions = new Map();
  const add = (m, k, ms) => m.set(k, (m.get(k) ?? 0) + ms);
  /** A frame's area and its name as listed: `fn (src/…:line)`, `fn (node:…:line)`, or a native name. */
  const frameOf = (node) => {
    const { url, functionName, lineNumber, columnNumber } = node.callFrame;
    let area;
    let name = functionName || '(anonymous)';
    const map = mapOf(url);
    if (map) {
      const entry = map.findEntry(lineNumber, columnNumber);
      const source = entry?.originalSource ?? url.slice(url.lastIndexOf('dist/'));
      area = areaOf(source);
      name = `${entry?.name ?? name} (${area}:${(entry?.originalLine ?? 0) + 1})`;
    } else if (url.startsWith('node:')) {
      area = `Node.js ${url.slice(5).replace(/^internal\//, '')}`;
      name = `${name} (${url}:${lineNumber + 1})`;
    } else if (url === '') {
      area = NATIVE[functionName] ?? `native ${functionName} (system call or built-in)`;
      if (functionName === '' || functionName === '(anonymous)') area = 'generated code (zod compiled parsers)';
    } else {
      area = areaOf(url);
      name = `${name} (${area}:${lineNumber + 1})`;
    }
    return { area, name, native: functionName in NATIVE };
  };
  const frames = new Map(profile.nodes.map((node) => [node.id, frameOf(node)]));
  for (const node of profile.nodes) {
    const ms = self.get(node.id);
    if (!ms) continue;
    const { area, name, native } = frames.get(node.id);
    add(areas, area, ms);
    if (!native) add(functions, name, ms);
  }
  const total = [...areas.values()].reduce((a, b) => a + b, 0);
  const idle = areas.get(NATIVE['(idle)']) ?? 0;
  const sorted = (m) => [...m].map(([k, ms]) => ({ [m === areas ? 'area' : 'name']: k, ms })).sort((a, b) => b.ms - a.ms);
  const summary = { totalMs: total, busyMs: total - idle, areas: sorted(areas), functions: sorted(functions) };
  if (activities === undefined) return summary;
  // Each node's activity: the first of the list matched by it or by a frame above it (walked from the root).
  const rest = activities.length;
  const activityOf = new Map();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const childIds = new Set(profile.nodes.flatMap((node) => node.children ?? []));
  const stack = profile.nodes.filter((node) => !childIds.has(node.id)).map((node) => ({ node, above: rest }));
  while (stack.length > 0) {
    const { node, above } = stack.pop();
    const own = activities.findIndex((a) => a.frame.test(frames.get(node.id).name));
    const activity = own === -1 ? above : Math.min(own, above);
    activityOf.set(node.id, activity);
    for (const id of node.children ?? []) stack.push({ node: byId.get(id), above: activity });
  }
  const spent = new Array(rest + 1).fill(0);
  for (const node of profile.nodes) {
    const ms = self.get(node.id);
    if (ms && node.callFrame.functionName !== '(idle)') spent[activityOf.get(node.id) ?? rest] += ms;
  }
  return {
    ...summary,
    activities: [
      ...activities.map((a, i) => ({ name: a.name, ms: spent[i] })),
      { name: 'the rest (the booking flow, batch runner, output, timers, promises, start-up)', ms: spent[rest] },
    ],
  };
}

/**
 * Markdown of a summary: the top areas and functions, with their share of the busy time, and with
 * `units` (e.g. `{count: 120000, name: 'request'}`) the time per unit in µs.
 */
export function profileMarkdown(title, summary, top = 12, units = undefined, extra = undefined) {
  const pct = (ms) => `${((ms / summary.busyMs) * 100).toFixed(1)} %`;
  const per = (ms) => (units ? ` | ${((ms * 1000) / units.count).toFixed(1)} µs` : '');
  return [
    `### ${title}`,
    '',
    `${summary.busyMs.toFixed(0)} ms busy of ${summary.totalMs.toFixed(0)} ms sampled (the rest idle)${units ? `, ${units.count} ${units.name}s: ${((summary.busyMs * 1000) / units.count).toFixed(1)} µs busy per ${units.name}` : ''}. Self time by area, then by function; % of busy time.${extra ? ` ${extra}` : ''}`,
    '',
    `| area | self time | share${units ? ` | per ${units.name}` : ''} |`,
    `|---|---|---${units ? '|---' : ''}|`,
    ...summary.areas
      .filter((a) => !a.area.startsWith('idle'))
      .slice(0, top)
      .map((a) => `| ${a.area} | ${a.ms.toFixed(0)} ms | ${pct(a.ms)}${per(a.ms)} |`),
    '',
    ...(summary.activities === undefined
      ? []
      : [
          'By activity: each sample counts for the first activity of this list with a frame on its stack (so a zod parse inside the input check counts for the check).',
          '',
          `| activity | time | share${units ? ` | per ${units.name}` : ''} |`,
          `|---|---|---${units ? '|---' : ''}|`,
          ...summary.activities.map((a) => `| ${a.name} | ${a.ms.toFixed(0)} ms | ${pct(a.ms)}${per(a.ms)} |`),
          '',
        ]),
    '| function | self time | share |',
    '|---|---|---|',
    ...summary.functions.slice(0, top).map((f) => `| \`${f.name.replace(/\|/g, '\\|')}\` | ${f.ms.toFixed(0)} ms | ${pct(f.ms)} |`),
    '',
  ].join('\n');
}
