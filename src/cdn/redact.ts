/**
 * Secret scrubbing for text that leaves the client (error messages, log fields). The API key
 * and every `Key` value the client has seen in an API key list are registered as secrets;
 * any occurrence in outgoing text is replaced before it can reach a log or a thrown object.
 */

const MASK = '[REDACTED]';
/** Values shorter than this are not scrubbed: too short to be a credential, too likely to match prose. */
const MIN_SECRET_LENGTH = 8;

/** A set of secret strings with a scrub function. */
export class SecretSet {
  readonly #secrets = new Set<string>();

  /** Registers a secret (ignored when empty or very short). */
  add(value: string | null | undefined): void {
    if (typeof value === 'string' && value.length >= MIN_SECRET_LENGTH) this.#secrets.add(value);
  }

  /** Returns `text` with every registered secret replaced by `[REDACTED]`. */
  scrub(text: string): string {
    let out = text;
    for (const secret of this.#secrets) {
      if (out.includes(secret)) out = out.split(secret).join(MASK);
    }
    return out;
  }

  /** Keeps inspect/JSON output free of the secrets themselves. */
  toJSON(): string {
    return `SecretSet(${this.#secrets.size})`;
  }
}

/**
 * Masks a key for display: the first and last four characters around an ellipsis for keys of
 * 16+ characters, `****` otherwise (short keys would be mostly revealed by a partial mask).
 */
export function maskKey(key: string | null | undefined): string {
  if (!key) return '';
  if (key.length < 16) return '****';
  return `${key.slice(0, 4)}…${key.slice(-4)}`;
}
