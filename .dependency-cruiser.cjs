/**
 * Layer rules of shipbook (STYLE.md, issue 17): data flows one way,
 *   commands → flows (booking) → api / output → schema,
 * nothing below the commands reaches back up to them or to the terminal, and the sandbox shares
 * only schema/ with the client. Run by `npm test` (pretest) through `npm run depcruise`.
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
      comment: 'Flows, api, output, input, schema and config take what they use, never the whole context.',
      from: { path: '^src/(booking|api|output|input|schema|config|http|sandbox)/' },
      to: { path: '^src/context\\.ts$' },
    },
    {
      name: 'below-commands-no-terminal',
      severity: 'error',
      comment: 'Nothing below the commands writes to the terminal: no IO streams, no spinner, no prompter in flows, api, input, schema or config.',
      from: { path: '^src/(booking|api|input|schema|config|http)/' },
      to: { path: ['^src/io\\.ts$', '^src/prompter\\.ts$', '^src/output/(progress|spinner|report|writer|table|style|order|quote|consolidated)\\.ts$'] },
    },
    {
      name: 'flows-above-api-and-output',
      severity: 'error',
      comment: 'api/ and output/ serve the flows; they never call back up into booking/ (output may read its types).',
      from: { path: '^src/(api|output|schema|input|config)/' },
      to: { path: '^src/booking/', dependencyTypesNot: ['type-only'] },
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
      comment: 'The client never imports the sandbox, except the context starting the built-in one (src/sandbox-builtin.ts) and the sandbox command.',
      from: { path: '^src/', pathNot: ['^src/sandbox/', '^src/context\\.ts$', '^src/sandbox-builtin\\.ts$', '^src/commands/sandbox\\.ts$'] },
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
