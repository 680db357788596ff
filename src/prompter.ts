/**
 * A narrow interface for questions to the user, so commands never call a prompt library
 * directly and tests answer by question text ({@link scriptedPrompter}), failing on any question
 * they did not expect.
 *
 * Commands ask only when `io.canPrompt` is true (stdin and stdout are terminals, not `CI`, not
 * `--no-input`); otherwise a missing input is an error naming the flag to use.
 */
import { ShipbookError } from './errors.js';
import type { IOStreams } from './io.js';

/** Checks an answer: `true` when it is accepted, or the reason it is not (shown under the question). */
export type Validate = (value: string) => true | string;

/** A free-text question. */
interface InputQuestion {
  message: string;
  /** Proposed answer, taken when the user just presses Enter. */
  default?: string;
  validate?: Validate;
}

/** A secret (API key): typed characters show as `*` and are never echoed. */
interface PasswordQuestion {
  message: string;
  validate?: Validate;
}

/** A yes/no question. */
interface ConfirmQuestion {
  message: string;
  default?: boolean;
}

/** One choice of a {@link SelectQuestion}. */
export interface Choice<T> {
  /** What the user sees. */
  name: string;
  value: T;
  description?: string;
}

/** Pick one of a list. */
interface SelectQuestion<T> {
  message: string;
  choices: ReadonlyArray<Choice<T>>;
  default?: T;
}

/**
 * Pick one of a long list by typing part of it (a country by name: "new z" → New Zealand).
 * `source` gives the choices that match what is typed so far (all of them for `''`); Enter takes
 * the highlighted one, the first by default.
 */
interface SearchQuestion<T> {
  message: string;
  source(term: string): ReadonlyArray<Choice<T>>;
  /** How many choices are shown at once. */
  pageSize?: number;
  /**
   * Shown in place of the list while nothing is typed and `source('')` is empty, e.g. `type part of
   * the name`; Enter then takes nothing, so no choice is ever made by an unread default.
   */
  placeholder?: string;
}

/** Everything a command may ask. */
export interface Prompter {
  input(question: InputQuestion): Promise<string>;
  password(question: PasswordQuestion): Promise<string>;
  confirm(question: ConfirmQuestion): Promise<boolean>;
  select<T>(question: SelectQuestion<T>): Promise<T>;
  search<T>(question: SearchQuestion<T>): Promise<T>;
}

/** The user pressed Ctrl-C (or Ctrl-D) in a prompt: exit code 130. */
export class PromptInterruptedError extends ShipbookError {
  constructor() {
    super('interrupted', 'interrupted', 'interrupted');
  }
}

function mapPromptError(err: unknown): unknown {
  const name = (err as { name?: string } | null)?.name;
  if (name === 'ExitPromptError' || name === 'AbortPromptError') return new PromptInterruptedError();
  return err;
}

/**
 * Prompts on the terminal with `@inquirer/prompts` (loaded on first use), reading `io.stdin` and
 * writing to `io.stdout`. Ctrl-C becomes {@link PromptInterruptedError} (exit 130).
 */
export function inquirerPrompter(io: Pick<IOStreams, 'stdin' | 'stdout'>): Prompter {
  const context = { input: io.stdin, output: io.stdout };
  const lib = () => import('@inquirer/prompts');
  const guard = async <T>(ask: () => Promise<T>): Promise<T> => {
    try {
      return await ask();
    } catch (err) {
      throw mapPromptError(err);
    }
  };
  return {
    input: (q) => guard(async () => (await lib()).input({ message: q.message, default: q.default, validate: q.validate }, context)),
    password: (q) => guard(async () => (await lib()).password({ message: q.message, mask: '*', validate: q.validate }, context)),
    confirm: (q) => guard(async () => (await lib()).confirm({ message: q.message, default: q.default }, context)),
    select: <T>(q: SelectQuestion<T>) =>
      guard(async () =>
        (await lib()).select<T>(
          { message: q.message, choices: q.choices.map((c) => ({ name: c.name, value: c.value, description: c.description })), default: q.default },
          context,
        ),
      ),
    search: <T>(q: SearchQuestion<T>) => {
      // Enter pressed while the list is still being filtered for the latest keystrokes would take
      // a choice of the previous list: refuse it, so only a choice that matches what is typed counts.
      let term = '';
      return guard(async () => {
        const prompts = await lib();
        return prompts.search<T>(
          {
            message: q.message,
            source: (typed) => {
              term = typed ?? '';
              const choices = q.source(term).map((c) => ({ name: c.name, value: c.value, description: c.description }));
              // Nothing typed and nothing proposed: a line saying what to do, which Enter cannot take.
              if (choices.length === 0 && term.trim() === '' && q.placeholder !== undefined) return [new prompts.Separator(q.placeholder)];
              return choices;
            },
            validate: (value) => q.source(term).some((c) => Object.is(c.value, value)) || 'pick one of the matches shown',
            pageSize: q.pageSize,
          },
          context,
        );
      });
    },
  };
}

/**
 * An answer a script gives: text (input, password, select by value, search by the typed term), a
 * boolean (confirm), or several in turn.
 */
export type ScriptedAnswer = string | boolean | ReadonlyArray<string | boolean>;

/** A {@link Prompter} answering from a script, with a log of what was asked. */
export interface ScriptedPrompter extends Prompter {
  /** Every question asked, in order (message text). */
  readonly asked: string[];
  /** Answers refused by a question's `validate`, with the reason. */
  readonly refused: Array<{ message: string; answer: string; reason: string }>;
  /** Scripted answers never given, as `"question": answer`. */
  unused(): string[];
  /** Throws when a scripted answer was never used (a test helper calls it after each test). */
  assertAllUsed(): void;
}

/**
 * A prompter for tests: answers are looked up by the exact question text. An unexpected
 * question, an answer of the wrong kind, or an answer refused by `validate` with no further
 * answer queued throws (so the test fails), and so does asking a question more often than
 * scripted. An empty string takes the question's default. An array gives answers in turn: after
 * a refused answer the question is asked again, like a real prompt.
 */
export function scriptedPrompter(answers: Readonly<Record<string, ScriptedAnswer>>): ScriptedPrompter {
  const queues = new Map<string, Array<string | boolean>>();
  for (const [message, answer] of Object.entries(answers)) queues.set(message, Array.isArray(answer) ? [...answer] : [answer as string | boolean]);
  const asked: string[] = [];
  const refused: ScriptedPrompter['refused'] = [];

  const next = (message: string): string | boolean => {
    asked.push(message);
    const queue = queues.get(message);
    if (!queue) throw new Error(`unexpected question: "${message}" (scripted: ${[...queues.keys()].map((k) => `"${k}"`).join(', ') || 'none'})`);
    const answer = queue.shift();
    if (answer === undefined) throw new Error(`question asked more often than scripted: "${message}"`);
    return answer;
  };
  const text = (message: string, fallback: string | undefined, validate: Validate | undefined): string => {
    for (;;) {
      const raw = next(message);
      if (typeof raw !== 'string') throw new Error(`question "${message}" needs a text answer, the script gives ${String(raw)}`);
      const value = raw === '' && fallback !== undefined ? fallback : raw;
      const verdict = validate ? validate(value) : true;
      if (verdict === true) return value;
      refused.push({ message, answer: value, reason: verdict });
      if (queues.get(message)!.length === 0) throw new Error(`answer to "${message}" refused: ${verdict}`);
    }
  };
  const unused = () => [...queues].flatMap(([message, queue]) => queue.map((a) => `"${message}": ${JSON.stringify(a)}`));
  return {
    asked,
    refused,
    unused,
    assertAllUsed() {
      const left = unused();
      if (left.length > 0) throw new Error(`scripted answers never used: ${left.join(', ')}`);
    },
    input: async (q) => text(q.message, q.default, q.validate),
    password: async (q) => text(q.message, undefined, q.validate),
    confirm: async (q) => {
      const raw = next(q.message);
      if (raw === '' && q.default !== undefined) return q.default;
      if (typeof raw !== 'boolean') throw new Error(`question "${q.message}" needs true or false, the script gives "${raw}"`);
      return raw;
    },
    select: async <T>(q: SelectQuestion<T>) => {
      const raw = next(q.message);
      if (raw === '' && q.default !== undefined) return q.default;
      const choice = q.choices.find((c) => String(c.value) === String(raw));
      if (!choice) throw new Error(`"${String(raw)}" is not a choice of "${q.message}" (${q.choices.map((c) => String(c.value)).join(', ')})`);
      return choice.value;
    },
    search: async <T>(q: SearchQuestion<T>) => {
      // The answer is what the user types; Enter takes the first choice that matches it.
      const raw = next(q.message);
      if (typeof raw !== 'string') throw new Error(`question "${q.message}" needs a typed search term, the script gives ${String(raw)}`);
      const first = q.source(raw)[0];
      if (!first) throw new Error(`no choice of "${q.message}" matches "${raw}"`);
      return first.value;
    },
  };
}
