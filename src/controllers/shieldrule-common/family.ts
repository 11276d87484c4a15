/**
 * One shield rule kind described as data: its names, its platform calls, its field table
 * (fields.ts) and how its CRD and messages name it. The common code (external client,
 * controller, CRD, export, plan) is written once against this description; each kind folder
 * (shieldwafrule/, shieldratelimit/) gives its own.
 */
import type { CdnClient } from '../../cdn/client.js';
import type { CallOptions } from '../../cdn/options.js';
import type { AnyField } from '../kit/fields.js';
import type { KindNames } from '../kind-names.js';
import type { RuleRecord } from './types.js';

type Body = Record<string, unknown>;

/** The platform calls of one family, bound to a client. */
export interface RuleApi {
  list(shieldZoneId: number, opts?: CallOptions): Promise<RuleRecord[]>;
  get(id: number, opts?: CallOptions): Promise<RuleRecord>;
  /** `shieldZoneId`, `ruleName`, `ruleDescription` and `ruleConfiguration`. */
  create(body: Body, opts?: CallOptions): Promise<RuleRecord>;
  /** Only the members that change (a configuration is bound whole: configuration.ts). */
  update(id: number, patch: Body, opts?: CallOptions): Promise<RuleRecord>;
  delete(id: number, opts?: CallOptions): Promise<void>;
}

/** One shield rule kind. */
export interface RuleFamily {
  readonly names: KindNames;
  /** What one rule is called in messages (`custom WAF rule`). */
  readonly what: string;
  /** The top of `kubectl explain`. */
  readonly description: string;
  /** The field table (fields.ts `ruleFields`). */
  readonly members: readonly AnyField[];
  /** The zone limit a create counts against (`customWafRulesLimit`), for messages. */
  readonly limitField: string;
  /** The family's calls on `client`. */
  api(client: CdnClient): RuleApi;
}
