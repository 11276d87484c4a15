/**
 * Process-wide pino logger factory. Every logger redacts the field names that can carry
 * credentials, so an API key or Secret value never reaches a log line even when a caller
 * logs a whole object by mistake.
 */
import { pino, type Logger, type LevelWithSilent } from 'pino';

/** Field paths censored in every log line. */
export const REDACT_PATHS: readonly string[] = [
  'accessKey',
  'AccessKey',
  'apiKey',
  'key',
  'Key',
  'password',
  'token',
  'secret',
  'headers.AccessKey',
  'headers.accesskey',
  'headers.authorization',
  'headers["x-sim-admin-token"]',
  '*.accessKey',
  '*.AccessKey',
  '*.apiKey',
  '*.Key',
  '*.token',
  '*.secret',
  '*.data',
  '*.stringData',
];

/** Creates a JSON logger writing to stderr at the given level (default `info`). */
export function createLogger(options: { level?: LevelWithSilent; name?: string } = {}): Logger {
  return pino(
    {
      level: options.level ?? (process.env.LOG_LEVEL as LevelWithSilent | undefined) ?? 'info',
      ...(options.name ? { name: options.name } : {}),
      redact: { paths: [...REDACT_PATHS], censor: '[REDACTED]' },
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    pino.destination(2),
  );
}
