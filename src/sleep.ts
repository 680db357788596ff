/** Waiting, shared by the waiters and the context (a module of its own: the context loads nothing heavy). */
import { setTimeout as timersSleep } from 'node:timers/promises';

/** Waits `ms` milliseconds; rejects (with an AbortError) when `signal` aborts first. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** The real {@link Sleep}: a timer (node:timers/promises). */
export const realSleep: Sleep = (ms, signal) => timersSleep(ms, undefined, { signal });
