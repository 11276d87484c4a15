/**
 * The entries of a custom access list: their codec (the spec's list <-> the platform's `content`,
 * one per line, in spec order) and the per-type shape check run before anything is sent.
 *
 * Entries are compared as a **set**: the platform matches a request against any entry, so order
 * and repetition carry no meaning (a reorder is no PATCH). An entry is compared as written after
 * trimming: addresses are not rewritten (`2001:DB8::1` and `2001:db8::1` are two entries).
 *
 * The CRD checks entries by schema keywords only: no surrounding space and no line break (a line
 * break would smuggle in another entry), no repeats. The shape per type is checked here, not in
 * CEL: a CEL rule over up to 10,000 items would run on every write of the object, status writes
 * included (docs/scaling.md); this runs once per reconcile, before any write, and is exact.
 */
import { isIP } from 'node:net';
import { accessListContent, accessListEntries } from '../../cdn/shield-access-lists.js';
import { TerminalError } from '../../runtime/errors.js';
import { SyncedReason } from '../../runtime/reasons.js';
import { textSet, type Codec } from '../kit/codecs.js';

/** The most entries one object may hold (the plan's customEntryLimit applies on top). */
export const MAX_ENTRIES = 10000;

/** Entries trimmed, blanks and repeats dropped, order kept. */
export function normalizeEntries(entries: readonly string[]): string[] {
  return [...new Set(entries.map((e) => e.trim()).filter((e) => e !== ''))];
}

/** True when `a` and `b` hold the same entries (as sets, see the module comment). */
export function sameEntries(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(normalizeEntries(a));
  const right = normalizeEntries(b);
  return left.size === right.length && right.every((e) => left.has(e));
}

/** How many entries differ, for the plan line (a list can be long). */
function summaryOf(want: readonly string[], live: readonly string[]): string {
  const sample = (xs: string[]): string =>
    xs.slice(0, 3).join(', ') + (xs.length > 3 ? ', ...' : '');
  const [have, wanted] = [new Set(live), new Set(want)];
  const added = want.filter((e) => !have.has(e));
  const removed = live.filter((e) => !wanted.has(e));
  const parts = [
    ...(added.length > 0 ? [`+${added.length} (${sample(added)})`] : []),
    ...(removed.length > 0 ? [`-${removed.length} (${sample(removed)})`] : []),
  ];
  return `${want.length} entries: ${parts.join(' ')}`;
}

/** The entries: a set in the CRD, sent in spec order as one line each (see the module comment). */
export const ENTRIES: Codec<string[]> = {
  ...textSet({ minLength: 1, maxLength: 256, pattern: '^\\S(?:[^\\r\\n]*\\S)?$' }),
  toWire: (v) => accessListContent(normalizeEntries(v)),
  fromWire: (w) => normalizeEntries(accessListEntries(typeof w === 'string' ? w : '')),
  same: sameEntries,
  describe: (live = [], want) => ({
    live: `${live.length} entries`,
    desired: summaryOf(normalizeEntries(want), live),
  }),
};

function isCidr(entry: string): boolean {
  const slash = entry.indexOf('/');
  if (slash < 0) return false;
  const family = isIP(entry.slice(0, slash));
  const prefix = entry.slice(slash + 1);
  if (family === 0 || !/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/** The shape check of each `AccessListType` name, with what a valid entry looks like. */
const SHAPES: Record<string, { check: (e: string) => boolean; expected: string }> = {
  IP: { check: (e) => isIP(e) !== 0, expected: 'an IPv4 or IPv6 address' },
  CIDR: { check: isCidr, expected: 'an address range such as 203.0.113.0/24' },
  ASN: { check: (e) => /^(AS)?\d{1,10}$/i.test(e), expected: 'an AS number such as AS13335' },
  Country: { check: (e) => /^[A-Za-z]{2}$/.test(e), expected: 'a two-letter country code' },
  Organization: { check: (e) => e.length > 0, expected: 'an organization name' },
  JA4: {
    check: (e) => /^[tqd][0-9a-z]{2}[di]\d{4}[0-9a-z]{2}_[0-9a-f]{12}_[0-9a-f]{12}$/i.test(e),
    expected: 'a JA4 fingerprint',
  },
};

/**
 * Throws InvalidSpec naming the first entry that does not fit `type` (field, value, reason);
 * nothing is sent for such a spec.
 */
export function checkEntries(type: string, entries: readonly string[]): void {
  const shape = SHAPES[type];
  if (!shape) return; // the CRD enumerates the types
  const i = entries.findIndex((e) => !shape.check(e.trim()));
  if (i < 0) return;
  throw new TerminalError(
    SyncedReason.InvalidSpec,
    `cannot use spec.entries[${i}] ${JSON.stringify(entries[i]!.slice(0, 100))}: a ${type} list takes ${shape.expected}`,
  );
}
