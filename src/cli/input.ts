/** Reads request bodies (`-f file`, YAML or JSON; `-` is stdin) and the API key file. */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { UsageError } from './usage-error.js';

/** Reads and parses a YAML/JSON document that must be an object. */
export function readBodyFile(path: string | undefined): Record<string, unknown> {
  if (!path) throw new UsageError('this command needs -f FILE (YAML or JSON; - for stdin)');
  let text: string;
  try {
    text = readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${path}: ${(e as Error).message}`);
  }
  let value: unknown;
  try {
    value = parse(text);
  } catch (e) {
    throw new UsageError(`cannot parse ${path}: ${(e as Error).message.split('\n')[0] ?? ''}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(`cannot use ${path}: the document must be a mapping (an object)`);
  }
  return value as Record<string, unknown>;
}

/**
 * The API key: the first line of `--api-key-file`, else `CDN_API_KEY`. The key is never
 * echoed; a missing one is a usage error.
 */
export function readApiKey(file: string | undefined, env: NodeJS.ProcessEnv): string {
  if (file) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new UsageError(
        `cannot read the API key file ${file}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`,
      );
    }
    const key = text.split(/\r?\n/)[0]?.trim() ?? '';
    if (!key) throw new UsageError(`cannot use the API key file ${file}: it is empty`);
    return key;
  }
  const key = env.CDN_API_KEY?.trim();
  if (!key) throw new UsageError('no API key: set CDN_API_KEY or pass --api-key-file FILE');
  return key;
}
