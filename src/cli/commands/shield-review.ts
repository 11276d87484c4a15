/**
 * `cdnctl shield triggered` and `cdnctl shield review`: the managed WAF rules that triggered on
 * a zone and wait for review, and the review itself (Ignore, LogOnly, DisableRule). With
 * `--print-patch POLICY`, review prints the `kubectl patch` that puts the outcome into the
 * ShieldPolicy's lists instead of calling the platform: for a zone a policy manages, a LogOnly
 * or DisableRule review made on the platform is drift the operator puts back.
 */
import type { CdnClient } from '../../cdn/client.js';
import type { TriggeredRule } from '../../cdn/security-types.js';
import { col, type Column, type CommandResult } from '../output.js';
import { parseId, UsageError } from '../usage-error.js';
import type { Command, Flags } from './types.js';

/** Review actions by name (`ReviewActionType`). */
export const REVIEW_ACTIONS = { Ignore: 0, LogOnly: 1, DisableRule: 2 } as const;

type ActionName = keyof typeof REVIEW_ACTIONS;

/** URLs shown per rule in the table. */
const TOP_URLS = 3;
/** The CRD's bound of a rule id in spec.waf.*Rules. */
const MAX_RULE_ID = 64;

function parseAction(value: string | undefined): ActionName {
  const name = (Object.keys(REVIEW_ACTIONS) as ActionName[]).find(
    (n) => n.toLowerCase() === (value ?? '').toLowerCase(),
  );
  if (!name)
    throw new UsageError(
      `ACTION must be one of Ignore, LogOnly, DisableRule, got ${JSON.stringify(value ?? '')}`,
    );
  return name;
}

function parseRule(value: string | undefined): string {
  const rule = value ?? '';
  if (rule === '' || rule.length > MAX_RULE_ID || /\s/.test(rule))
    throw new UsageError(
      `RULE must be a rule id of 1 to ${MAX_RULE_ID} characters without spaces, got ${JSON.stringify(rule)}`,
    );
  return rule;
}

/** `url (n), ...`: the most targeted URLs first. */
export function topUrls(urls: TriggeredRule['topTargetedUrls']): string {
  return Object.entries(urls ?? {})
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .slice(0, TOP_URLS)
    .map(([url, n]) => `${url} (${n})`)
    .join(', ');
}

const triggeredColumns: Column[] = [
  col('RULE', 'ruleId'),
  col('REQUESTS', 'totalTriggeredRequests'),
  col('DESCRIPTION', 'ruleDescription'),
  {
    header: 'TOP URLS',
    get: (row) => topUrls(row.topTargetedUrls as TriggeredRule['topTargetedUrls']),
  },
];

async function listTriggered(client: CdnClient, args: string[]): Promise<CommandResult> {
  const { rules, total } = await client.listTriggeredRules(parseId('ZONE', args[0]));
  const rows = [...rules].sort(
    (a, b) => (b.totalTriggeredRequests ?? 0) - (a.totalTriggeredRequests ?? 0),
  );
  return {
    value: { triggeredRules: rules, totalTriggeredRules: total },
    rows,
    columns: triggeredColumns,
  };
}

function withRule(list: readonly string[], rule: string, present: boolean): string[] {
  const rest = list.filter((id) => id !== rule);
  return present ? [...rest, rule] : rest;
}

/** The shell form of an argument: single-quoted, any `'` closed and escaped. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * The merge patch of a ShieldPolicy that records `action` for `rule`, from the zone's current
 * lists (a merge patch replaces a list whole, so the lists are sent complete). The other list
 * is in the patch only when the rule has to leave it.
 */
export function reviewPatch(
  zone: { wafDisabledRules?: string[] | null; wafLogOnlyRules?: string[] | null },
  rule: string,
  action: 'LogOnly' | 'DisableRule',
): { spec: { waf: { disabledRules?: string[]; logOnlyRules?: string[] } } } {
  const disabled = zone.wafDisabledRules ?? [];
  const logOnly = zone.wafLogOnlyRules ?? [];
  const waf: { disabledRules?: string[]; logOnlyRules?: string[] } = {};
  if (action === 'DisableRule' || disabled.includes(rule))
    waf.disabledRules = withRule(disabled, rule, action === 'DisableRule');
  if (action === 'LogOnly' || logOnly.includes(rule))
    waf.logOnlyRules = withRule(logOnly, rule, action === 'LogOnly');
  return { spec: { waf } };
}

async function printPatch(
  client: CdnClient,
  zoneId: number,
  rule: string,
  action: ActionName,
  flags: Flags,
): Promise<CommandResult> {
  const policy = flags.printPatch ?? '';
  if (!/^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/.test(policy))
    throw new UsageError(
      `--print-patch needs the ShieldPolicy's name, got ${JSON.stringify(policy)}`,
    );
  if (action === 'Ignore')
    throw new UsageError(
      '--print-patch: Ignore changes neither list, there is nothing to patch (run the review without --print-patch)',
    );
  const patch = reviewPatch(await client.getShieldZone(zoneId), rule, action);
  const ns = flags.namespace ? ` -n ${shellQuote(flags.namespace)}` : '';
  return {
    value: patch,
    text: `kubectl patch shieldpolicy ${policy}${ns} --type merge -p ${shellQuote(JSON.stringify(patch))}\n`,
  };
}

async function review(client: CdnClient, args: string[], flags: Flags): Promise<CommandResult> {
  const zoneId = parseId('ZONE', args[0]);
  const rule = parseRule(args[1]);
  const action = parseAction(args[2]);
  if (flags.printPatch !== undefined) return await printPatch(client, zoneId, rule, action, flags);
  await client.reviewTriggeredRule(zoneId, { ruleId: rule, action: REVIEW_ACTIONS[action] });
  const list = action === 'LogOnly' ? 'logOnlyRules' : 'disabledRules';
  return {
    value: { ok: true, shieldZoneId: zoneId, ruleId: rule, action },
    message: `Reviewed rule ${rule} of shield zone ${zoneId}: ${action}`,
    ...(action === 'Ignore'
      ? {}
      : {
          notes: `note: if a ShieldPolicy manages spec.waf.${list} of this zone, the operator puts the lists back at its next pass; record the review in the policy instead (--print-patch POLICY)\n`,
        }),
  };
}

/** The triggered-rules commands of the shield group. */
export const shieldReviewCommands: Command[] = [
  {
    group: 'shield',
    verb: 'triggered',
    args: ['ZONE'],
    summary: 'List the managed WAF rules that triggered on a shield zone and wait for review',
    run: async ({ client, args }) => await listTriggered(client, args),
  },
  {
    group: 'shield',
    verb: 'review',
    args: ['ZONE', 'RULE', 'ACTION'],
    summary:
      'Review a triggered rule: Ignore, LogOnly or DisableRule (--print-patch POLICY: print the kubectl patch of the ShieldPolicy instead)',
    run: async ({ client, args, flags }) => await review(client, args, flags),
  },
];
