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

/** Forms in which a secret value can appear in outgoing or echoed text. */
function encodingsOf(value: string): string[] {
  const escaped = JSON.stringify(value).slice(1, -1);
  const forms = [
    value,
    // Inside a JSON document (an echoed request body): quotes, backslashes, newlines escaped.
    escaped,
    // An echoed body inside a JSON log line: escaped twice.
    JSON.stringify(escaped).slice(1, -1),
    // Sent base64-encoded (certificates and their keys).
    Buffer.from(value, 'utf8').toString('base64'),
  ];
  // Longest first: a shorter form inside a longer one must not leave the rest of it behind.
  return [...new Set(forms)].sort((a, b) => b.length - a.length);
}

/** Most sources remembered at once; the oldest is forgotten first beyond it. */
const MAX_SOURCES = 20_000;

/**
 * Process-wide registry of values read from Kubernetes Secrets, grouped by source (e.g.
 * `namespace/name/key`). Re-registering a source replaces its old value, and a deleted Secret's
 * sources are forgotten, so the registry holds only values that are current somewhere.
 * Every CDN client error and every classified error is scrubbed with it.
 */
export class SecretRegistry {
  readonly #bySource = new Map<string, string[]>();

  /** Registers the value read from `source` (replacing what that source held before). */
  set(source: string, value: string): void {
    if (value.length < MIN_SECRET_LENGTH) {
      this.#bySource.delete(source);
      return;
    }
    this.#bySource.delete(source);
    this.#bySource.set(source, encodingsOf(value));
    if (this.#bySource.size > MAX_SOURCES) {
      const oldest = this.#bySource.keys().next().value;
      if (oldest !== undefined) this.#bySource.delete(oldest);
    }
  }

  /** Forgets every source whose name starts with `prefix` (e.g. a deleted Secret). */
  forget(prefix: string): void {
    for (const source of this.#bySource.keys())
      if (source.startsWith(prefix)) this.#bySource.delete(source);
  }

  /** Number of sources held (tests, bounds). */
  get size(): number {
    return this.#bySource.size;
  }

  /** Returns `text` with every registered value (in each encoding) replaced by `[REDACTED]`. */
  scrub(text: string): string {
    let out = text;
    for (const forms of this.#bySource.values()) {
      for (const form of forms) {
        if (form.length >= MIN_SECRET_LENGTH && out.includes(form))
          out = out.split(form).join(MASK);
      }
    }
    return out;
  }

  /** Keeps inspect/JSON output free of the values. */
  toJSON(): string {
    return `SecretRegistry(${this.#bySource.size})`;
  }
}

/** The registry shared by the whole process. */
export const secretValues = new SecretRegistry();

/** Scrubs every value registered in {@link secretValues} from `text`. */
export function scrubSecretValues(text: string): string {
  return secretValues.scrub(text);
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
