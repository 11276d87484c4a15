/**
 * The lazy parts of a shield rule kind's KindModule (its controller, `cdnctl diff` and `cdnctl
 * export`), written once for every rule kind: the kind's folder gives its family.
 */
import type { KindModule, Lazy } from '../kind-module.js';
import type { RuleFamily } from './family.js';

/** The controller, planner and exporter of the kind of `family`, each loaded on first use. */
export function ruleKindParts(
  family: Lazy<RuleFamily>,
): Pick<KindModule, 'controller' | 'planner' | 'exporter'> {
  return {
    controller: async () => {
      const [f, { createRuleKind }] = await Promise.all([family(), import('./controller.js')]);
      return (deps) => createRuleKind(f, deps);
    },
    planner: async () => (await import('./plan.js')).rulePlanner(await family()),
    exporter: async () => (await import('./export.js')).ruleExporter(await family()),
  };
}
