/** shipbook's version, put in by the build (scripts/build.mjs `define`); `dev` when run from source. */
declare const SHIPBOOK_VERSION: string;
/** The version printed by `--version` and sent in `User-Agent: shipbook/<version>`. */
export const VERSION: string = typeof SHIPBOOK_VERSION === 'string' ? SHIPBOOK_VERSION : 'dev';
