/**
 * `--jq <expression>` and `--template <template>`: what a machine document becomes on stdout when
 * the user picks from it, without installing jq.
 * - `--jq` runs jq itself (jq 1.8, compiled to WebAssembly by the `jq-wasm` package, the wasm
 *   embedded in the JavaScript so the single executables carry it too) over the JSON document and
 *   prints its results one per line, strings raw (as `jq -r` and `gh --jq` print them).
 * - `--template` renders the document with Handlebars (mustache syntax plus `{{#each}}`, `{{#if}}`,
 *   `{{else}}`, `{{@index}}`, `../`): `{{order.id}}`, `{{#each services}}{{code}} {{price.total}}{{/each}}`,
 *   values written as they are (no HTML escaping), and a helper `{{json value}}` for a value as JSON.
 * Both see the document `--json` would print (`target`, `sandbox` and `state` included). A mistake in
 * the expression is a usage error (exit 2) with jq's or Handlebars' message: a syntax error before
 * the command runs, an error while it is applied when the result is printed.
 */
import { UsageError } from '../errors.js';

/** What the user picks from a machine document with. */
export interface OutputPick {
  /** `jq`: a jq filter; `template`: a Handlebars template. */
  readonly kind: 'jq' | 'template';
  /** The expression or template as given on the command line. */
  readonly expression: string;
}

/** A loaded and checked pick: the document as JSON text in, the text for stdout out. */
type Picker = (json: string) => string;

/** The jq handle, loaded by {@link preparePick} (about 15 ms: the wasm is compiled once a run). */
let jqHandle: import('jq-wasm/inline').Jq | undefined;
/** Compiled templates by their text. */
const templates = new Map<string, (data: unknown) => string>();

/** The flag's name, for messages. */
function flagOf(pick: OutputPick): string {
  return pick.kind === 'jq' ? '--jq' : '--template';
}

/** jq's own message without its `jq: error` prefix lines' noise (`jq: 1 compile error` is dropped). */
function jqMessage(r: { stderr: string; exitCode: number }): string {
  const message = r.stderr
    .split('\n')
    .filter((l) => !/^jq: \d+ compile errors?$/.test(l.trim()))
    .join('\n')
    .trim();
  return message === '' ? `jq stopped with exit status ${r.exitCode}` : message;
}

/**
 * Loads what `pick` runs with and checks it: a jq filter is compiled (run once over `null`, where
 * only a syntax error can fail it), a template parsed. main's output set-up calls it before the
 * command runs, so a mistaken expression stops the run before anything is sent. Safe to call twice.
 * @throws UsageError (exit 2) with jq's or Handlebars' message for an expression that does not compile
 */
export async function preparePick(pick: OutputPick): Promise<void> {
  if (pick.kind === 'jq') {
    if (jqHandle === undefined) {
      const { loadJq } = await import('jq-wasm/inline');
      jqHandle = await loadJq();
    }
    const check = jqHandle.raw(null, pick.expression, ['-r']);
    // Exit 3 is jq's compile error; a runtime error over null (`.[]`) says nothing about the document.
    if (check.exitCode === 3 || (check.exitCode !== 0 && check.exitCode !== 5)) {
      throw new UsageError(`--jq: ${jqMessage(check)}`, { suggestion: 'The jq manual: https://jqlang.org/manual/' });
    }
    return;
  }
  if (!templates.has(pick.expression)) {
    const handlebars = (await import('handlebars')).default;
    const engine = handlebars.create();
    engine.registerHelper('json', (value: unknown) => JSON.stringify(value));
    try {
      // Parsed now, so a syntax error is a usage error before the command runs.
      engine.parse(pick.expression);
    } catch (err) {
      throw new UsageError(`--template: ${err instanceof Error ? err.message : String(err)}`);
    }
    templates.set(pick.expression, engine.compile(pick.expression, { noEscape: true, strict: false }));
  }
}

/**
 * `document` picked from with `pick`, as the text for stdout (ending in a newline unless empty).
 * The document goes through JSON first, so money and dates are in their JSON form.
 * @throws UsageError (exit 2) with jq's message when the filter fails on this document (`.x[]` over
 *   a string), or Handlebars' when the template does; Error when {@link preparePick} was not called
 */
export function applyPick(pick: OutputPick, document: unknown): string {
  const picker: Picker = pick.kind === 'jq' ? jqPicker(pick) : templatePicker(pick);
  return picker(JSON.stringify(document ?? null));
}

function jqPicker(pick: OutputPick): Picker {
  const jq = jqHandle;
  if (jq === undefined) throw new Error('internal: jq is not loaded (preparePick was not called)');
  return (json) => {
    const r = jq.raw(json, pick.expression, ['-r']);
    if (r.exitCode !== 0) throw new UsageError(`${flagOf(pick)}: ${jqMessage(r)}`);
    return r.stdout === '' ? '' : `${r.stdout}\n`;
  };
}

function templatePicker(pick: OutputPick): Picker {
  const render = templates.get(pick.expression);
  if (render === undefined) throw new Error('internal: the template is not compiled (preparePick was not called)');
  return (json) => {
    try {
      // The text ends in a newline, as jq's results do (a template that ends its own line keeps one).
      const text = render(JSON.parse(json));
      return text === '' || text.endsWith('\n') ? text : `${text}\n`;
    } catch (err) {
      throw new UsageError(`${flagOf(pick)}: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
}
