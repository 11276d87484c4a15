/**
 * One shield rule kind described as data: its names, its platform calls and the members of its
 * `ruleConfiguration` with their spec fields. The common code (mapping, diff, external client,
 * controller, CRD, export, plan) is written once against this description; each kind folder
 * (shieldwafrule/, shieldratelimit/) gives its own.
 */
import type { CdnClient } from '../../cdn/client.js';
import type { CallOptions } from '../../cdn/options.js';
import type { KindNames } from '../kind-names.js';
import type { RuleEnum } from './enums.js';
import type { RuleRecord } from './types.js';

/** How a spec field maps onto one `ruleConfiguration` member. */
export type MemberType =
  'enum' | 'enumList' | 'string' | 'boolean' | 'integer' | 'variables' | 'conditions';

/** One member of the platform's `ruleConfiguration`. */
export interface ConfigMember {
  /** Spec field (top level of the spec). */
  readonly spec: string;
  /** Member of `ruleConfiguration`. */
  readonly api: string;
  readonly type: MemberType;
  /** Names <-> numbers of an `enum` / `enumList` member. */
  readonly table?: RuleEnum;
}

/** Body of a create (`shieldZoneId`, name, description, configuration). */
export interface RuleCreateBody {
  shieldZoneId: number;
  ruleName: string;
  ruleDescription?: string;
  ruleConfiguration: Record<string, unknown>;
}

/** Body of a `PATCH`: only the members that change. */
export interface RulePatchBody {
  ruleName?: string;
  ruleDescription?: string;
  ruleConfiguration?: Record<string, unknown>;
}

/** The platform calls of one family, bound to a client. */
export interface RuleApi {
  list(shieldZoneId: number, opts?: CallOptions): Promise<RuleRecord[]>;
  get(id: number, opts?: CallOptions): Promise<RuleRecord>;
  create(body: RuleCreateBody, opts?: CallOptions): Promise<RuleRecord>;
  update(id: number, patch: RulePatchBody, opts?: CallOptions): Promise<RuleRecord>;
  delete(id: number, opts?: CallOptions): Promise<void>;
}

/** One shield rule kind. */
export interface RuleFamily {
  readonly names: KindNames;
  /** What one rule is called in messages (`custom WAF rule`). */
  readonly what: string;
  /** `ruleConfiguration` members, the action first. */
  readonly members: readonly ConfigMember[];
  /** The zone limit a create counts against (`customWafRulesLimit`), for messages. */
  readonly limitField: string;
  /** The family's calls on `client`. */
  api(client: CdnClient): RuleApi;
}
