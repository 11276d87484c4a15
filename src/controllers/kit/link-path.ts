/**
 * Where an owner's status reports the id of a resource the platform made for it, as data (one
 * row of a kind's owner table, kit/linked-resource.ts): members separated by dots; a list member
 * followed by `[key=member]` selects the items whose `key` equals the link's `member`, and
 * `[key=member?]` lets the link leave `member` out (every item is then tried: more than one id
 * found is ambiguous). `acceleratedPullZoneId`;
 * `containers[name=container?].endpoints[displayName=endpoint].pullZoneId`.
 */

/** One step of a path: a member, and for a list member the item it selects. */
export interface PathStep {
  readonly member: string;
  readonly select?: {
    /** Member of the list item compared (`displayName`). */
    readonly key: string;
    /** Member of the link holding the wanted value (`endpoint`). */
    readonly from: string;
    /** The link may leave `from` out. */
    readonly optional: boolean;
  };
}

/** One member of a link that a path selects by (`endpoint`), and whether it may be left out. */
export interface LinkMember {
  readonly member: string;
  readonly optional: boolean;
}

/** What a path found: the id, and the value of each link member it matched (`container`). */
export interface PathMatch {
  readonly id: unknown;
  readonly chosen: Readonly<Record<string, string>>;
}

const STEP = /^([A-Za-z][A-Za-z0-9]*)(?:\[([A-Za-z][A-Za-z0-9]*)=([A-Za-z][A-Za-z0-9]*)(\?)?\])?$/;

/** The steps of `path`; throws for a malformed one (an owner table is code, not input). */
export function parseIdPath(path: string): PathStep[] {
  return path.split('.').map((part) => {
    const m = STEP.exec(part);
    if (!m) throw new Error(`cannot parse id path ${JSON.stringify(path)}: bad step ${part}`);
    const [, member, key, from, optional] = m as unknown as [
      string,
      string,
      string?,
      string?,
      string?,
    ];
    if (key === undefined || from === undefined) return { member };
    return { member, select: { key, from, optional: optional === '?' } };
  });
}

/** The link members `path` selects by, in path order. */
export function linkMembersOf(path: string): LinkMember[] {
  return parseIdPath(path).flatMap((s) =>
    s.select ? [{ member: s.select.from, optional: s.select.optional }] : [],
  );
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function walk(
  node: unknown,
  steps: readonly PathStep[],
  link: Readonly<Record<string, unknown>>,
  chosen: Record<string, string>,
): PathMatch[] {
  const [step, ...rest] = steps;
  if (step === undefined) return node === undefined || node === null ? [] : [{ id: node, chosen }];
  const value = isRecord(node) ? node[step.member] : undefined;
  const select = step.select;
  if (!select) return walk(value, rest, link, chosen);
  if (!Array.isArray(value)) return [];
  const wanted = link[select.from];
  return value
    .filter(isRecord)
    .filter((item) => wanted === undefined || item[select.key] === wanted)
    .flatMap((item) =>
      walk(item, rest, link, { ...chosen, [select.from]: String(item[select.key]) }),
    );
}

/** Every id `path` reaches in `status` for `link` (none, one, or several: ambiguous). */
export function readIdPath(
  status: unknown,
  path: string,
  link: Readonly<Record<string, unknown>>,
): PathMatch[] {
  return walk(status, parseIdPath(path), link, {});
}

/** The path in words for messages: `status.containers[name=web].endpoints[displayName=public].pullZoneId`. */
export function describeIdPath(path: string, link: Readonly<Record<string, unknown>>): string {
  const steps = parseIdPath(path).map((s) => {
    if (!s.select) return s.member;
    const v = link[s.select.from];
    return typeof v === 'string' ? `${s.member}[${s.select.key}=${v}]` : `${s.member}[]`;
  });
  return `status.${steps.join('.')}`;
}
