/**
 * Help text that commands share: the top-level examples of the main flows, and the summary,
 * description and examples of commands that define none of their own (command groups, small
 * config commands). Applied once to the finished command tree by {@link applyHelpExtras}.
 */
import type { Command } from 'commander';

/** Extra help for one command, by its path (`config sender set`). */
export interface HelpExtra {
  summary?: string;
  description?: string;
  examples?: string[];
}

/** Examples shown under the top-level help: the main flows. */
export const TOP_LEVEL_EXAMPLES = [
  '# one-off booking: create, accept, wait for tracking numbers',
  'shipbook quote fixtures/quotes/syd-mel-single.yaml',
  'shipbook book fixtures/orders/domestic-syd-mel.yaml',
  '# step by step',
  'shipbook order create fixtures/orders/domestic-syd-mel.yaml --quiet   # prints ORD-…',
  'shipbook order accept ORD-… --payment credit --wait',
  '# consolidated mail',
  'shipbook shipment create fixtures/shipments/au-us-1.yaml',
  'shipbook shipment combine SHP-A SHP-B --main fixtures/shipments/main-to-hub.yaml',
  '# check input offline; see what would be sent',
  'shipbook validate fixtures/orders/',
  'shipbook book fixtures/orders/domestic-syd-mel.yaml --dry-run',
  '# set-up and reference',
  'shipbook doctor',
  'shipbook help exit-codes     # also: help environment, help formats',
];

/** Help for commands that do not carry their own. */
export const HELP_EXTRAS: Record<string, HelpExtra> = {
  order: {
    description:
      'Orders step by step: create a pending order from a file (POST /orders/), accept it with payment\n' +
      '(the booking then runs at the service), read it, or cancel it while it is pending.\n' +
      '"shipbook book" does create, accept and wait in one go.',
    examples: [
      'ORDER=$(shipbook order create fixtures/orders/domestic-syd-mel.yaml --quiet)',
      'shipbook order accept "$ORDER" --payment credit --wait',
      'shipbook order get "$ORDER" --json',
    ],
  },
  'order create': {
    examples: [
      'shipbook order create fixtures/orders/domestic-syd-mel.yaml',
      'ORDER=$(shipbook order create fixtures/orders/domestic-syd-mel.yaml --quiet)',
      'cat order.json | shipbook order create - --json',
    ],
  },
  shipment: {
    examples: [
      'shipbook shipment create fixtures/shipments/au-us-1.yaml',
      'shipbook shipment combine SHP-A SHP-B --main fixtures/shipments/main-to-hub.yaml',
      'shipbook book fixtures/consolidated/three-parcels.yaml     # all of it in one go',
    ],
  },
  schema: {
    examples: ['shipbook schema order > schemas/order.schema.json', 'shipbook schema consolidated | jq .properties'],
  },
  callback: {
    description:
      'A receiver for booking callbacks on this machine, for watching what the service sends\n' +
      '(book and order accept --wait run their own receiver while they wait).',
    examples: ['shipbook callback listen', 'shipbook callback listen --listen 127.0.0.1:8787 --json'],
  },
  auth: {
    description:
      'Credentials of a profile: "auth login" stores a base URL and an API key after checking them,\n' +
      '"auth status" shows what this run uses and where each setting comes from, "auth logout"\n' +
      'removes the stored key. CI can instead set SHIPBOOK_BASE_URL and SHIPBOOK_API_KEY.',
    examples: ['shipbook --profile production auth login', 'shipbook auth status', 'shipbook --profile staging auth logout'],
  },
  config: {
    examples: ['shipbook config list', 'shipbook --profile staging config set base-url https://staging.example.com/', 'shipbook config sender list'],
  },
  'config list': {
    description: 'Show every setting of the active profile with its value (the API key as ****abcd) and where it comes from: flag, environment, file or default.',
  },
  'config get': {
    description: 'Print the value of one setting of the active profile; the API key only as ****abcd.',
  },
  'config set': {
    description: 'Store one setting in the active profile (created if needed), or the default-profile. Values are checked before saving.',
  },
  'config unset': {
    description: 'Remove one stored setting of the active profile; its default applies again.',
  },
  'config sender': {
    description:
      'Sender addresses saved in the profile, by name. An order file can name one as its collection:\n' +
      'collection: "@warehouse" (replaced by the saved address before validation).',
    examples: ['shipbook config sender set warehouse warehouse.yaml', 'shipbook config sender list', 'shipbook config sender show warehouse --json'],
  },
  'config sender set': {
    description: 'Check an address file (JSON or YAML: first_name, last_name, company, email, phone, country, postcode, city, address_lines) and save it under a name.',
    examples: ['shipbook config sender set warehouse warehouse.yaml', 'cat address.json | shipbook config sender set home -'],
  },
  'config sender list': {
    description: 'List the saved senders of the active profile: name, city and country.',
    examples: ['shipbook config sender list', 'shipbook --profile production config sender list --json'],
  },
  'config sender show': {
    description: 'Print one saved sender as YAML (JSON with --json), as it would go into an order.',
    examples: ['shipbook config sender show warehouse', 'shipbook config sender show warehouse --json'],
  },
  'config sender remove': {
    description: 'Remove a saved sender from the active profile.',
    examples: ['shipbook config sender remove warehouse', 'shipbook --profile staging config sender remove old-depot'],
  },
  'config path': {
    examples: ['shipbook config path', 'SHIPBOOK_CONFIG_DIR=/tmp/sb shipbook config path'],
  },
};

function formatExamples(lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  ${l}`).join('\n')}\n`;
}

/** Adds the top-level examples and every {@link HELP_EXTRAS} entry to the command tree. */
export function applyHelpExtras(program: Command): void {
  program.addHelpText('after', formatExamples(TOP_LEVEL_EXAMPLES));
  const walk = (cmd: Command, path: string[]) => {
    for (const sub of cmd.commands) {
      const p = [...path, sub.name()];
      const extra = HELP_EXTRAS[p.join(' ')];
      if (extra?.summary) sub.summary(extra.summary);
      if (extra?.description) sub.description(extra.description);
      if (extra?.examples) sub.addHelpText('after', formatExamples(extra.examples));
      walk(sub, p);
    }
  };
  walk(program, []);
}
