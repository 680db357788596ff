/**
 * The sandbox start and private home that the e2e files repeat: {@link useSandbox} starts a
 * sandbox on 127.0.0.1 before the file's tests and closes it after, with a private HOME/config
 * directory, and gives the environment that points shipbook at it.
 */
import { afterAll, beforeAll } from 'vitest';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { makeHome } from './cli.js';

/** The API key the e2e sandboxes accept. */
export const E2E_API_KEY = 'sk_test_e2e_0123456789';

/** A running sandbox for one test file, and the environment that points shipbook at it. */
interface SandboxFixture {
  /** The sandbox (its state can be inspected and steered). Set once `beforeAll` ran. */
  readonly sandbox: Sandbox;
  /** SHIPBOOK_BASE_URL, SHIPBOOK_API_KEY and a private HOME / XDG_CONFIG_HOME. */
  readonly env: Record<string, string>;
  /** The private home directory (also XDG_CONFIG_HOME), removed after the file's tests. */
  readonly home: string;
}

/** Starts a sandbox (processing delay 100 ms unless given) before the file's tests; closes it and removes the home after. */
export function useSandbox(options: SandboxOptions = {}): SandboxFixture {
  const home = makeHome();
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox({ processingDelayMs: 100, ...options });
  });
  afterAll(async () => {
    await sandbox?.close();
    home.cleanup();
  });
  return {
    home: home.home,
    get sandbox() {
      if (!sandbox) throw new Error('the sandbox starts in beforeAll: use it inside a test');
      return sandbox;
    },
    get env() {
      return { SHIPBOOK_BASE_URL: this.sandbox.url, SHIPBOOK_API_KEY: E2E_API_KEY, HOME: home.home, XDG_CONFIG_HOME: home.home };
    },
  };
}
