/**
 * Layer rules of shipbook: data flows one way,
 *   commands → flows (booking, booking/batch) → api / output → schema,
 * nothing below the commands reaches back up to them or to the terminal (a flow returns data and
 * errors; commands and output/ print them), and the sandbox shares only schema/ with the client.
 * Run by `npm test` (pretest) through `npm run lint:layers`.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle ties modules into one; split the shared part into its own module.',
      from: { path: '^src/' },
      to: { circular: true, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'nothing-imports-commands',
      severity: 'error',
      comment: 'Commands are the top floor: only main.ts and other commands use them.',
      from: { path: '^src/', pathNot: ['^src/commands/', '^src/main\\.ts$'] },
      to: { path: ['^src/commands/', '^src/main\\.ts$'] },
    },
    {
      name: 'below-commands-no-context',
      severity: 'error',
      comment: 'Flows, api, output, input, schema, config and the ledger take what they use, never the whole context.',
      from: { path: '^src/(booking|batch|ledger|api|output|input|schema|config|http|sandbox)/' },
      to: { path: '^src/context\\.ts$' },
    },
    {
      name: 'below-commands-no-terminal',
      severity: 'error',
      comment:
        'Nothing below the commands writes to the terminal: no IO streams, no prompter and nothing of output/ (its hints included) in flows, api, input, schema, config, http or the ledger. A flow returns data; what words the next step for both lives outside output/ (src/shell.ts, src/next-steps.ts).',
      from: { path: '^src/(booking|batch|ledger|api|input|schema|config|http)/' },
      to: { path: ['^src/io\\.ts$', '^src/prompter\\.ts$', '^src/output/'] },
    },
    {
      name: 'flows-above-api-and-output',
      severity: 'error',
      comment: 'api/ and output/ serve the flows; they never call back up into booking/ or batch/ (output may read their types).',
      from: { path: '^src/(api|output|schema|input|config)/' },
      to: { path: '^src/(booking|batch)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'booking-below-batch',
      severity: 'error',
      comment: 'booking/ books one document; booking/batch/ runs many through it. A single booking never reaches up into the batch.',
      from: { path: '^src/booking/', pathNot: ['^src/booking/batch/', '^src/booking/index\\.ts$'] },
      to: { path: '^src/booking/batch/' },
    },
    {
      name: 'ledger-below-flows',
      severity: 'error',
      comment: 'The ledger is the durable record the flows write and read: it knows nothing of booking/ or batch/.',
      from: { path: '^src/ledger/' },
      to: { path: '^src/(booking|batch)/' },
    },
    {
      name: 'ledger-implementations-behind-the-face',
      severity: 'error',
      comment:
        'The file ledger (src/ledger/file/) and the PostgreSQL ledger (src/ledger/pg/) are siblings behind the face, src/ledger/index.ts: nothing outside src/ledger/ reaches either.',
      from: { path: '^src/', pathNot: '^src/ledger/' },
      to: { path: '^src/ledger/(file|pg)/' },
    },
    {
      name: 'pg-ledger-shares-only-the-root',
      severity: 'error',
      comment:
        "The PostgreSQL ledger shares with the file ledger only what lies in the room's root (paths, rank, actor stamp, claims, records); it never imports src/ledger/file/.",
      from: { path: '^src/ledger/pg/' },
      to: { path: '^src/ledger/file/' },
    },
    {
      name: 'commands-use-the-ledger-face',
      severity: 'error',
      comment: 'Commands use the ledger through its face, src/ledger/index.ts, and nothing else of src/ledger/.',
      from: { path: '^src/commands/' },
      to: { path: '^src/ledger/', pathNot: '^src/ledger/index\\.ts$' },
    },
    {
      name: 'commands-use-the-booking-face',
      severity: 'error',
      comment: 'Commands use the booking room through its face (src/booking/index.ts), never the modules behind it.',
      from: { path: '^src/commands/' },
      to: { path: '^src/booking/', pathNot: '^src/booking/index\\.ts$' },
    },
    {
      name: 'schema-is-the-floor',
      severity: 'error',
      comment: 'schema/ depends on nothing of shipbook but itself and the error types.',
      from: { path: '^src/schema/' },
      to: { path: '^src/', pathNot: ['^src/schema/', '^src/errors\\.ts$'] },
    },
    {
      name: 'sandbox-shares-only-schema',
      severity: 'error',
      comment: 'The simulated service shares schema/ with the client and nothing else (server plumbing in http/ too, dirs.ts and lock.ts).',
      from: { path: '^src/sandbox/' },
      to: { path: '^src/', pathNot: ['^src/sandbox/', '^src/schema/', '^src/http/', '^src/errors\\.ts$', '^src/dirs\\.ts$', '^src/lock\\.ts$'] },
    },
    {
      name: 'client-does-not-use-the-sandbox',
      severity: 'error',
      comment:
        "The client never imports the sandbox, except the context starting the built-in one (src/sandbox-builtin.ts), the sandbox command, and `rules test`, which prices orders with the sandbox's price list in-process (src/sandbox/price-list.ts).",
      from: {
        path: '^src/',
        pathNot: ['^src/sandbox/', '^src/context\\.ts$', '^src/sandbox-builtin\\.ts$', '^src/commands/sandbox/index\\.ts$', '^src/commands/rules/'],
      },
      to: { path: '^src/sandbox/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
