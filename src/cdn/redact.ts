/**
 * Secret scrubbing for text that leaves the client (error messages, log fields). The API key
 * and every `Key` value the client has seen in an API key list are registered as secrets;
 * any occurrence in outgoing text, in any of its forms (secret-forms.ts: raw, JSON-escaped,
 * base64, URL-encoded, HTML-escaped), is replaced before it can reach a log or a thrown object.
 */
import { FormIndex } from './form-index.js';
import { CompiledSecret } from './secret-forms.js';

/** Values shorter than this are not scrubbed: too short to be a credential, too likely to match prose. */
const MIN_SECRET_LENGTH = 8;

/** A set of secret strings with a scrub function. */
export class SecretSet {
  readonly #secrets = new Set<string>();
  readonly #index = new FormIndex();

  /** Registers a secret (ignored when empty or very short). */
  add(value: string | null | undefined): void {
    if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH) return;
    if (this.#secrets.has(value)) return;
    this.#secrets.add(value);
    this.#index.add(new CompiledSecret(value));
  }

  /** Returns `text` with every registered secret, in each of its forms, replaced by `[REDACTED]`. */
  scrub(text: string): string {
    return this.#index.scrub(text);
  }

  /** Keeps inspect/JSON output free of the secrets themselves. */
  toJSON(): string {
    return `SecretSet(${this.#secrets.size})`;
  }
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
  /** The value each source holds (insertion order: oldest first). */
  readonly #bySource = new Map<string, string>();
  /** Each distinct value once, compiled, with the number of sources holding it. */
  readonly #byValue = new Map<string, { secret: CompiledSecret; sources: number }>();
  readonly #index = new FormIndex();

  /** Registers the value read from `source` (replacing what that source held before). */
  set(source: string, value: string): void {
    if (this.#bySource.get(source) === value) {
      // Read again (every pass reads its Secrets): only the recency changes.
      this.#bySource.delete(source);
      this.#bySource.set(source, value);
      return;
    }
    this.#release(source);
    if (value.length < MIN_SECRET_LENGTH) return;
    this.#bySource.set(source, value);
    const entry = this.#byValue.get(value);
    if (entry) entry.sources++;
    else {
      const secret = new CompiledSecret(value);
      this.#byValue.set(value, { secret, sources: 1 });
      this.#index.add(secret);
    }
    if (this.#bySource.size > MAX_SOURCES) {
      const oldest = this.#bySource.keys().next().value;
      if (oldest !== undefined) this.#release(oldest);
    }
  }

  /** Forgets every source whose name starts with `prefix` (e.g. a deleted Secret). */
  forget(prefix: string): void {
    for (const source of this.#bySource.keys())
      if (source.startsWith(prefix)) this.#release(source);
  }

  /** Number of sources held (tests, bounds). */
  get size(): number {
    return this.#bySource.size;
  }

  /** Returns `text` with every registered value (in each of its forms) replaced by `[REDACTED]`. */
  scrub(text: string): string {
    return this.#index.scrub(text);
  }

  /** Keeps inspect/JSON output free of the values. */
  toJSON(): string {
    return `SecretRegistry(${this.#bySource.size})`;
  }

  #release(source: string): void {
    const value = this.#bySource.get(source);
    if (value === undefined) return;
    this.#bySource.delete(source);
    const entry = this.#byValue.get(value);
    if (entry && --entry.sources === 0) {
      this.#byValue.delete(value);
      this.#index.remove(entry.secret);
    }
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
