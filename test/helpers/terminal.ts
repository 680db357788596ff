/**
 * A real pseudo-terminal for end-to-end tests: tmux runs a command in a detached session of fixed
 * size; keys go in with `send-keys`, the screen comes back with `capture-pane`, and every step
 * waits for what the screen shows, never for a fixed time. Each test file uses its own tmux server
 * (`-L`), so nothing touches a user's tmux; {@link killTerminals} ends it after the file.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { BIN, ROOT } from './cli.js';

/** True when tmux is installed (the tests that need it are skipped otherwise). */
export const hasTmux = spawnSync('tmux', ['-V']).status === 0;

const SOCKET = `shipbook-pty-${process.pid}`;
const tmux = (...args: string[]) => execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });

/** Quotes one word for a POSIX shell. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** One program running in a tmux window: type into it and read its screen. */
export class Terminal {
  private constructor(readonly name: string) {}

  /**
   * Starts `shipbook <args>` with `env` (plus NO_COLOR and a short sandbox delay) in a terminal of
   * `columns`×`rows`, in `cwd` (the repository by default); the shell prints `__EXIT=<code>` when it ends.
   */
  static start(args: string[], env: Record<string, string>, columns = 120, rows = 50, cwd = ROOT): Terminal {
    const vars = Object.entries({ NO_COLOR: '1', SHIPBOOK_SANDBOX_DELAY_MS: '100', ...env }).map(([k, v]) => `${k}=${shellQuote(v)}`);
    return Terminal.shell(
      `cd ${shellQuote(cwd)} && env -u CI ${vars.join(' ')} ${shellQuote(process.execPath)} ${shellQuote(BIN)} ${args.map(shellQuote).join(' ')}; echo __EXIT=$?; sleep 600`,
      columns,
      rows,
    );
  }

  /** Runs a shell command line in a new terminal of `columns`×`rows`. */
  static shell(command: string, columns = 120, rows = 50): Terminal {
    const name = `t${randomUUID().slice(0, 8)}`;
    tmux('new-session', '-d', '-s', name, '-x', String(columns), '-y', String(rows), command);
    return new Terminal(name);
  }

  /**
   * Keeps the window and its screen once its command ended, however it ended (a Ctrl-C that
   * reaches the shell after the program, say), so the screen can still be read.
   */
  keepAfterExit(): this {
    tmux('set-option', '-t', this.name, 'remain-on-exit', 'on');
    return this;
  }

  /** The screen and its scrollback, as text (lines the terminal wrapped are joined again). */
  screen(): string {
    return tmux('capture-pane', '-p', '-J', '-S', '-500', '-t', this.name);
  }

  /** The visible screen only, row by row, as the terminal shows it (wrapped lines stay wrapped). */
  visible(): string {
    return tmux('capture-pane', '-p', '-t', this.name);
  }

  /** Whether the program rang the terminal's bell since the window was last looked at (tmux's bell flag). */
  rang(): boolean {
    return tmux('display-message', '-p', '-t', this.name, '#{window_bell_flag}').trim() === '1';
  }

  /** Changes the terminal's size (the program gets SIGWINCH). */
  resize(columns: number, rows = 50): void {
    tmux('resize-window', '-t', this.name, '-x', String(columns), '-y', String(rows));
  }

  /** Waits until the screen matches (checked every 25 ms, up to `timeoutMs`). */
  async waitFor(what: string | RegExp, timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const text = this.screen();
      if (typeof what === 'string' ? text.includes(what) : what.test(text)) return text;
      if (Date.now() > deadline) throw new Error(`the screen never showed ${String(what)}:\n${text}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** Waits for a question, then types the answer and Enter. */
  async answer(question: string, text: string): Promise<void> {
    await this.waitFor(`? ${question}`);
    if (text !== '') tmux('send-keys', '-t', this.name, '-l', text);
    tmux('send-keys', '-t', this.name, 'Enter');
    await this.waitFor(`✔ ${question}`);
  }

  /** Types into a search question, waits until `pick` is highlighted, takes it. */
  async search(question: string, text: string, pick: string): Promise<void> {
    await this.waitFor(`? ${question}`);
    tmux('send-keys', '-t', this.name, '-l', text);
    await this.waitFor(`❯ ${pick}`);
    tmux('send-keys', '-t', this.name, 'Enter');
    await this.waitFor(`✔ ${question} ${pick}`);
  }

  /** Sends keys by name (`Enter`, `Down`, `C-c`, `C-u`, `Tab`), or literal text after `-l`. */
  keys(...names: string[]): void {
    tmux('send-keys', '-t', this.name, ...names);
  }

  /** Waits for the program to end and returns its exit code and the whole screen. */
  async exit(timeoutMs = 20_000): Promise<{ code: number; screen: string }> {
    const screen = await this.waitFor(/__EXIT=\d+/, timeoutMs);
    return { code: Number(/__EXIT=(\d+)/.exec(screen)![1]), screen };
  }
}

/** Ends this file's tmux server and every terminal in it. */
export function killTerminals(): void {
  if (hasTmux) spawnSync('tmux', ['-L', SOCKET, 'kill-server']);
}
