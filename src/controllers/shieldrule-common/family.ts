/**
 * One shield rule kind as data: its names, platform calls and field table (fields.ts); the
 * common code (resource, controller, CRD, export, plan) is written once against it, and loaded
 * lazily into the kind's KindModule by {@link ruleKindParts}.
 */
import type { CdnClient } from '../../cdn/client.js';
import type { CallOptions } from '../../cdn/options.js';
import type { AnyField } from '../kit/fields.js';
import type { KindModule, Lazy } from '../kind-module.js';
import type { NamedResourceKind } from '../kind-names.js';
import type { RuleRecord } from './types.js';

type Body = Record<string, unknown>;

/** The platform calls of one family, bound to a client. */
export interface RuleApi {
  list(shieldZoneId: number, opts?: CallOptions): Promise<RuleRecord[]>;
  get(id: number, opts?: CallOptions): Promise<RuleRecord>;
  create(body: Body, opts?: CallOptions): Promise<RuleRecord>;
  update(id: number, patch: Body, opts?: CallOptions): Promise<RuleRecord>;
  delete(id: number, opts?: CallOptions): Promise<void>;
}

/** One shield rule kind. */
export interface RuleFamily {
  readonly names: NamedResourceKind;
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

/** The schema, controller, planner and exporter of the kind of `family`, loaded on first use. */
export function ruleKindParts(
  family: Lazy<RuleFamily>,
): Pick<KindModule, 'schema' | 'controller' | 'planner' | 'exporter'> {
  return {
    schema: async () => {
      const [f, { ruleSchema }] = await Promise.all([family(), import('./crd.js')]);
      return (docs) => ruleSchema(docs, f);
    },
    controller: async () => {
      const [f, { createRuleKind }] = await Promise.all([family(), import('./controller.js')]);
      return (deps) => createRuleKind(f, deps);
    },
    planner: async () => (await import('./plan.js')).rulePlanner(await family()),
    exporter: async () => (await import('./export.js')).ruleExporter(await family()),
  };
}
