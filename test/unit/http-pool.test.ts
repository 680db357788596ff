/**
 * The connection pool of the API client (src/api/http.ts) gives undici the limit on an answer's
 * headers that undici would read from node:http itself (it does so, so loading undici need not
 * load node:http): Node.js's own value, when no --max-http-header-size option changes it.
 */
import { maxHeaderSize } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Agent } from 'undici';
import { Pool } from '../../src/api/http.js';

/** An Agent class that keeps the options it was made with. */
function recordingAgent(): { AgentClass: typeof Agent; options: () => Record<string, unknown> | undefined } {
  let seen: Record<string, unknown> | undefined;
  class Recording {
    constructor(options: Record<string, unknown>) {
      seen = options;
    }
  }
  return { AgentClass: Recording as unknown as typeof Agent, options: () => seen };
}

describe('connection pool', () => {
  it("gives undici node:http's limit on header size, and the timeouts", () => {
    expect(process.execArgv.join(' ') + (process.env.NODE_OPTIONS ?? '')).not.toMatch(/max[-_]http[-_]header[-_]size/);
    const { AgentClass, options } = recordingAgent();
    new Pool({ connectTimeoutMs: 1000, responseTimeoutMs: 2000 }).dispatcher(AgentClass);
    expect(options()).toEqual({ connect: { timeout: 1000 }, headersTimeout: 2000, bodyTimeout: 2000, maxHeaderSize });
  });
});
