/**
 * Process-wide pino logger factory. Credentials are kept out of log lines in two ways:
 *
 * - by value: every finished line is scrubbed of the values registered in the process-wide
 *   registry (src/cdn/redact.ts: API keys and every other value read from a Secret, in each
 *   encoding), wherever they appear (message, error text, any field);
 * - by field path: fields that hold credentials by their very name (the platform's
 *   `AccessKey` header and `Key` of an API key record, `apiKey`, passwords, tokens, Secret
 *   `data`) are censored even before their value was ever registered.
 *
 * Generic names the runtime uses for other things (`key` is an object's `namespace/name`) are
 * never censored: a log line must say which object it is about.
 */
import { pino, type DestinationStream, type Logger, type LevelWithSilent } from 'pino';
import { scrubSecretValues } from './cdn/redact.js';

/** Field paths censored in every log line: names that only ever hold credentials. */
export const REDACT_PATHS: readonly string[] = [
  'accessKey',
  'AccessKey',
  'apiKey',
  'Key',
  'password',
  'Password',
  'ReadOnlyPassword',
  'token',
  'secret',
  'certificateKey',
  'headers.AccessKey',
  'headers.accesskey',
  'headers.authorization',
  'headers["x-sim-admin-token"]',
  '*.accessKey',
  '*.AccessKey',
  '*.apiKey',
  '*.Key',
  '*.password',
  '*.Password',
  '*.ReadOnlyPassword',
  '*.token',
  '*.secret',
  '*.certificateKey',
  '*.data',
  '*.stringData',
];

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  level?: LevelWithSilent;
  name?: string;
  /** Where lines go; default stderr (tests pass a collecting stream). */
  destination?: DestinationStream;
}

/** Creates a JSON logger writing to stderr at the given level (default `info`). */
export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? (process.env.LOG_LEVEL as LevelWithSilent | undefined) ?? 'info',
      ...(options.name ? { name: options.name } : {}),
      redact: { paths: [...REDACT_PATHS], censor: '[REDACTED]' },
      // The whole serialized line, so a registered value is caught in any field or message.
      hooks: { streamWrite: scrubSecretValues },
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    options.destination ?? pino.destination(2),
  );
}
