/**
 * The forms a secret value can take in text that leaves the operator, compiled once per value
 * into a scrubber: the value, its base64 and its base64url (certificates and keys are sent
 * base64-encoded), each with every character in any of its spellings (secret-spellings.ts:
 * raw, JSON-escaped, URL-encoded, HTML-escaped and their combinations, hex digits in either
 * case).
 *
 * Scrubbing runs on every log line, so the common case must stay one substring search per
 * form: each form keeps an anchor, its longest run of characters no encoder changes (letters,
 * digits, `-._`), which every spelling of the form contains. Only text containing the anchor
 * is searched with the form's pattern, built the first time it is needed. A form made of such
 * characters only (most API keys, most base64) is its own anchor and needs no pattern at all.
 */
import type { HttpTransport } from './http.js';
import { PLAIN_RUNS, spellingsOfChar } from './secret-spellings.js';

/** What replaces a secret in scrubbed text. */
export const MASK = '[REDACTED]';

/** Patterns of single characters, by character (few distinct ones: bounded by the alphabet). */
const charPatterns = new Map<string, string>();

function patternOfChar(ch: string): string {
  let pattern = charPatterns.get(ch);
  if (pattern === undefined) {
    const escaped = spellingsOfChar(ch).map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    pattern = escaped.length === 1 ? escaped[0]! : `(?:${escaped.join('|')})`;
    charPatterns.set(ch, pattern);
  }
  return pattern;
}

/** The longest run of plain characters in `text` (empty when there is none). */
function anchorOf(text: string): string {
  let best = '';
  for (const run of text.match(PLAIN_RUNS) ?? []) if (run.length > best.length) best = run;
  return best;
}

/** One form of a secret: its text, its anchor and (built on first need) its pattern. */
export class SecretForm {
  readonly #text: string;
  readonly #anchor: string;
  #pattern: RegExp | undefined;
  /** Characters of the value this is a form of (longer values are scrubbed first). */
  readonly valueLength: number;

  constructor(text: string, valueLength: number) {
    this.#text = text;
    this.#anchor = anchorOf(text);
    this.valueLength = valueLength;
  }

  /** Characters of the form (longer forms are scrubbed first). */
  get length(): number {
    return this.#text.length;
  }

  /** The form's longest run of plain characters, which every spelling of it contains. */
  get anchor(): string {
    return this.#anchor;
  }

  /** `text` with every spelling of this form replaced by {@link MASK}. */
  scrub(text: string): string {
    if (!text.includes(this.#anchor)) return text;
    if (this.#anchor === this.#text) return text.split(this.#text).join(MASK);
    this.#pattern ??= new RegExp([...this.#text].map(patternOfChar).join(''), 'gi');
    return text.replace(this.#pattern, MASK);
  }

  /** Keeps inspect/JSON output free of the value. */
  toJSON(): string {
    return 'SecretForm';
  }
}

/** base64 without padding (padding left behind a mask reveals nothing). */
const base64Of = (value: string, alphabet: 'base64' | 'base64url'): string =>
  Buffer.from(value, 'utf8').toString(alphabet).replace(/=+$/, '');

/**
 * A secret value compiled for scrubbing: the value, its base64 and base64url forms (each once:
 * a form equal to another is dropped). See the module comment.
 */
export class CompiledSecret {
  /** The forms, longest first. */
  readonly forms: readonly SecretForm[];
  /** Characters of the value. */
  readonly length: number;

  constructor(value: string) {
    this.length = value.length;
    const texts = new Set([value, base64Of(value, 'base64'), base64Of(value, 'base64url')]);
    // Longest first: a shorter form inside a longer one must not leave the rest of it behind.
    this.forms = [...texts]
      .map((t) => new SecretForm(t, value.length))
      .sort((a, b) => b.length - a.length);
  }

  /** `text` with every form of the value, in every spelling, replaced by {@link MASK}. */
  scrub(text: string): string {
    let out = text;
    for (const form of this.forms) out = form.scrub(out);
    return out;
  }

  /** Keeps inspect/JSON output free of the value. */
  toJSON(): string {
    return 'CompiledSecret';
  }
}

/**
 * Registers a secret the client is about to send (a registry password, a syslog token) with
 * the transport, which scrubs it from every error in every form an error text could echo it in.
 */
export function registerSentSecret(http: HttpTransport, value: string | null | undefined): void {
  if (typeof value === 'string') http.registerSecret(value);
}
