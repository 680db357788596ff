/**
 * The built-in sandbox (docs/sandbox.md; its state directory in docs/configuration.md, `SHIPBOOK_STATE_DIR`): the default
 * target when no base URL is configured. Started in-process by the command that needs it, on a
 * random loopback port, over the state directory that every command shares, so an order created by
 * one command is found by the next (`$SHIPBOOK_STATE_DIR`, else `$XDG_STATE_HOME/shipbook`, else
 * `~/.local/state/shipbook`). A callback URL of the user's own is called only while a shipbook
 * command runs; `shipbook sandbox` is the long-running service.
 */
import { ConfigError, cmd } from './errors.js';
import { SANDBOX_API_KEY, startSandbox, StoreCorruptError, type Sandbox } from './sandbox/index.js';
import { FILE_SYSTEM_REFUSALS, stateDirectory } from './dirs.js';
import { asStorageError } from './storage.js';

/** A started built-in sandbox, with where its state lives and the key it accepts. */
interface BuiltinSandbox extends Sandbox {
  stateDir: string;
  SANDBOX_API_KEY: string;
}

/**
 * Starts the built-in sandbox over the user's state directory. `SHIPBOOK_SANDBOX_DELAY_MS` sets the
 * time from acceptance to the booking result (default 1500 ms); `o.onStateWait` is told when a
 * request waits for another process holding the state's lock (see SandboxOptions).
 * @throws ConfigError (exit 4) when the state cannot be read: its path, and `shipbook sandbox reset` as the fix
 */
export async function startBuiltinSandbox(
  env: Readonly<Record<string, string | undefined>>,
  o: { onStateWait?: (holder: string, waitMs: number) => void } = {},
): Promise<BuiltinSandbox> {
  const stateDir = stateDirectory(env);
  const delay = Number(env.SHIPBOOK_SANDBOX_DELAY_MS ?? '1500');
  try {
    const sandbox = await startSandbox({
      processingDelayMs: Number.isFinite(delay) && delay >= 0 ? delay : 1500,
      stateDir,
      announce: true,
      ...(o.onStateWait ? { onStateWait: o.onStateWait } : {}),
    });
    return Object.assign(sandbox, { stateDir, SANDBOX_API_KEY });
  } catch (err) {
    throw builtinStateError(err);
  }
}

/** A StoreCorruptError as the error people see (exit 4), a disk that refused a write as a storage error (exit 10); other errors unchanged. */
export function builtinStateError(err: unknown): unknown {
  if (err instanceof StoreCorruptError) {
    return new ConfigError(err.message, {
      suggestion: [
        'Start the built-in sandbox again from nothing with "',
        cmd('sandbox', 'reset'),
        '" (its orders are lost; the file is left as it is until then).',
      ],
      cause: err,
    });
  }
  const storage = asStorageError(err);
  if (storage !== undefined) return storage;
  if (FILE_SYSTEM_REFUSALS.has((err as NodeJS.ErrnoException)?.code ?? '')) {
    return new ConfigError(`cannot use the built-in sandbox's state directory: ${(err as Error).message}`, {
      suggestion: 'Point SHIPBOOK_STATE_DIR at a directory you can write (not a file), or fix the permissions or the free space.',
      cause: err,
    });
  }
  return err;
}
