/**
 * Scripted answers for tests that prompt: {@link scripted} makes a scripted prompter (answers looked
 * up by question text, an unexpected question throws) and, after each test, fails the test when
 * an answer it scripted was never asked for. {@link withPrompter} hands one to a command through
 * its context (the one way to inject a prompter).
 */
import { afterEach } from 'vitest';
import type { Context } from '../../src/context.js';
import { scriptedPrompter, type ScriptedAnswer, type ScriptedPrompter } from '../../src/prompter.js';

const made: ScriptedPrompter[] = [];

afterEach(() => {
  const left = made.splice(0).flatMap((p) => p.unused());
  if (left.length > 0) throw new Error(`the test left scripted answers unused: ${left.join(', ')}`);
});

/** A scripted prompter checked after the test: every answer must have been used. */
export function scripted(answers: Readonly<Record<string, ScriptedAnswer>>): ScriptedPrompter {
  const p = scriptedPrompter(answers);
  made.push(p);
  return p;
}

/** `ctx` with `prompter` as its prompter (everything else unchanged). */
export function withPrompter(ctx: Context, prompter: ScriptedPrompter): Context {
  return Object.create(ctx, { prompter: { value: () => prompter } }) as Context;
}
