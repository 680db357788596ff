/** Colour that respects the terminal, `NO_COLOR` and `--no-color` (via {@link IOStreams.color}). */
import { Chalk } from 'chalk';
import type { IOStreams } from '../io.js';

const colored = new Chalk({ level: 1 });
/** The styles shipbook paints with. */
export type Style = 'red' | 'green' | 'yellow' | 'cyan' | 'dim' | 'bold';

/** Paints `text` in `style` when colour is on for these streams; plain text otherwise. */
export function paint(io: Pick<IOStreams, 'color'>, style: Style, text: string): string {
  return io.color ? colored[style](text) : text;
}
