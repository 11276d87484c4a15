/**
 * Scrubs a text of many secrets at a cost that does not grow with their number. Every log
 * line is scrubbed, and a cluster may have thousands of Secret values registered: one
 * substring search per form and line would cost milliseconds per line. Instead the first
 * {@link GRAM} characters of each form's anchor (a run of characters no encoder changes, found
 * in every spelling of the form) are hashed into a table; one pass over the text with a rolling
 * hash of its {@link GRAM}-character windows yields the forms that may occur in it, and only
 * those are searched. A few forms are simply searched one by one, which is cheaper than a pass.
 * Secrets come and go one at a time (a Secret read, rotated or deleted), so the table is updated
 * in place, never rebuilt whole.
 */
import type { CompiledSecret, SecretForm } from './secret-forms.js';

/** Characters hashed per window (anchors shorter than this are searched in every text). */
const GRAM = 4;
/** Up to this many forms are searched one by one (cheaper than a hashing pass, measured). */
const LINEAR_LIMIT = 32;
const BASE = 31;
/** Hashes are kept to 30 bits: small integers, which a Map keys without allocating. */
const MASK30 = 0x3fffffff;
/** BASE^(GRAM-1): the weight of the character leaving the window. */
const OUTGOING = Array.from({ length: GRAM - 1 }).reduce<number>((p) => Math.imul(p, BASE), 1);
/** Bits of the table's filter: one per low 20 bits of a hash (128 KiB: it stays in cache). */
const FILTER_BITS = 20;
const FILTER_MASK = (1 << FILTER_BITS) - 1;

const NONE: readonly SecretForm[] = [];

function setBit(filter: Uint32Array, h: number): void {
  filter[(h & FILTER_MASK) >>> 5]! |= 1 << (h & 31);
}

/** Polynomial hash (modulo 2^30) of the {@link GRAM} characters of `text` from `start`. */
function hashAt(text: string, start: number): number {
  let h = 0;
  for (let i = start; i < start + GRAM; i++) h = (Math.imul(h, BASE) + text.charCodeAt(i)) & MASK30;
  return h;
}

/** Scrub order: longer values first (a value inside a longer one must not split it), then longer forms. */
const scrubOrder = (a: SecretForm, b: SecretForm): number =>
  b.valueLength - a.valueLength || b.length - a.length;

/** The forms of a changing set of secrets, and the table that finds the few a text may hold. */
export class FormIndex {
  readonly #forms = new Set<SecretForm>();
  /** Every form in scrub order, for the one-by-one search (rebuilt after a change). */
  #ordered: SecretForm[] | undefined;
  /** Window hash → the forms whose anchor starts with such a window (mostly one). */
  readonly #byGram = new Map<number, SecretForm[]>();
  /** Forms whose anchor is shorter than a window: searched in every text. */
  readonly #short = new Set<SecretForm>();
  /**
   * A bit per low {@link FILTER_BITS} bits of the hashes in #byGram: most windows stop here.
   * Built when first needed (a client with a few secrets never needs it).
   */
  #filter: Uint32Array | undefined;
  /** Hashes removed since the filter was built (their bits may still be set). */
  #stale = 0;

  /** Adds the forms of `secret`. */
  add(secret: CompiledSecret): void {
    for (const form of secret.forms) {
      this.#forms.add(form);
      if (form.anchor.length < GRAM) {
        this.#short.add(form);
        continue;
      }
      const h = hashAt(form.anchor, 0);
      const list = this.#byGram.get(h);
      if (list) list.push(form);
      else this.#byGram.set(h, [form]);
      if (this.#filter) setBit(this.#filter, h);
    }
    this.#ordered = undefined;
  }

  /** Removes the forms of `secret`. */
  remove(secret: CompiledSecret): void {
    for (const form of secret.forms) {
      this.#forms.delete(form);
      this.#short.delete(form);
      if (form.anchor.length < GRAM) continue;
      const h = hashAt(form.anchor, 0);
      const rest = (this.#byGram.get(h) ?? []).filter((f) => f !== form);
      if (rest.length > 0) this.#byGram.set(h, rest);
      else if (this.#byGram.delete(h)) this.#stale++;
    }
    this.#ordered = undefined;
    // Stale bits only cost a table lookup; rebuild once they outnumber the live ones.
    if (this.#stale > Math.max(1024, this.#byGram.size)) this.#filter = undefined;
  }

  /** `text` with every form, in every spelling, replaced by the mask. */
  scrub(text: string): string {
    const forms = this.#forms.size <= LINEAR_LIMIT ? this.#allOrdered() : this.#candidates(text);
    let out = text;
    for (const form of forms) out = form.scrub(out);
    return out;
  }

  #allOrdered(): readonly SecretForm[] {
    this.#ordered ??= [...this.#forms].sort(scrubOrder);
    return this.#ordered;
  }

  /** The forms that may occur in `text`, in scrub order. */
  #candidates(text: string): readonly SecretForm[] {
    const hits = new Set<SecretForm>();
    for (const form of this.#short) if (text.includes(form.anchor)) hits.add(form);
    if (text.length >= GRAM) this.#addWindowHits(text, hits);
    return hits.size === 0 ? NONE : [...hits].sort(scrubOrder);
  }

  /** Adds to `hits` the forms whose anchor starts like one of the windows of `text`. */
  #addWindowHits(text: string, hits: Set<SecretForm>): void {
    const filter = (this.#filter ??= this.#buildFilter());
    let h = hashAt(text, 0);
    for (let i = 0; ; i++) {
      if (filter[(h & FILTER_MASK) >>> 5]! & (1 << (h & 31)))
        for (const form of this.#byGram.get(h) ?? []) hits.add(form);
      if (i + GRAM >= text.length) return;
      const leaving = Math.imul(text.charCodeAt(i), OUTGOING);
      h = (Math.imul(h - leaving, BASE) + text.charCodeAt(i + GRAM)) & MASK30;
    }
  }

  #buildFilter(): Uint32Array {
    const filter = new Uint32Array((1 << FILTER_BITS) / 32);
    for (const h of this.#byGram.keys()) setBit(filter, h);
    this.#stale = 0;
    return filter;
  }
}
