/** The project version, reported in the User-Agent and `--version`. Kept in step with package.json. */
export const VERSION = '0.1.0';
