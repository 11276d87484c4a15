/**
 * The simulator's managed WAF rule catalogue: rule groups, each available from a plan on
 * (Basic groups on every zone, the others from Advanced, Business or Enterprise). The shield
 * document gives the shapes (`WafRuleMainGroupModel`, `WafRulesByPlanModel`); the groups and
 * rule ids here are the simulator's own, stated in docs/simulator.md.
 */
import type { JsonObject } from '../types.js';
import { PLAN_NAMES } from './shield-common.js';

interface CatalogueGroup {
  id: number;
  name: string;
  code: string;
  /** Lowest plan that has the group. */
  plan: number;
  rules: Array<[ruleId: string, description: string]>;
}

const MAIN_GROUP = 'OWASP Core Rule Set';
const RULESET = 'owasp-crs-v4';

const GROUPS: readonly CatalogueGroup[] = [
  {
    id: 913,
    name: 'Scanner Detection',
    code: 'REQUEST-913-SCANNER-DETECTION',
    plan: 0,
    rules: [
      ['913100', 'Found User-Agent associated with security scanner'],
      ['913110', 'Found request header associated with security scanner'],
    ],
  },
  {
    id: 930,
    name: 'Local File Inclusion',
    code: 'REQUEST-930-APPLICATION-ATTACK-LFI',
    plan: 0,
    rules: [
      ['930100', 'Path traversal attack (/../)'],
      ['930120', 'OS file access attempt'],
    ],
  },
  {
    id: 941,
    name: 'Cross-Site Scripting',
    code: 'REQUEST-941-APPLICATION-ATTACK-XSS',
    plan: 1,
    rules: [
      ['941100', 'XSS attack detected via libinjection'],
      ['941110', 'XSS filter: script tag vector'],
    ],
  },
  {
    id: 942,
    name: 'SQL Injection',
    code: 'REQUEST-942-APPLICATION-ATTACK-SQLI',
    plan: 1,
    rules: [
      ['942100', 'SQL injection attack detected via libinjection'],
      ['942110', 'SQL injection attack: common injection testing detected'],
    ],
  },
  {
    id: 944,
    name: 'Java Attacks',
    code: 'REQUEST-944-APPLICATION-ATTACK-JAVA',
    plan: 2,
    rules: [['944100', 'Remote command execution: suspicious Java class detected']],
  },
];

/** The lowest plan that has a managed rule, or undefined for an unknown rule id. */
export function planOfRule(ruleId: string): number | undefined {
  return GROUPS.find((g) => g.rules.some(([id]) => id === ruleId))?.plan;
}

/** The description of a managed rule. */
export function describeRule(ruleId: string): string | null {
  for (const group of GROUPS) {
    const rule = group.rules.find(([id]) => id === ruleId);
    if (rule) return rule[1];
  }
  return null;
}

function groupModel(group: CatalogueGroup): JsonObject {
  return {
    id: group.id,
    name: group.name,
    code: group.code,
    fileName: `${group.code}.conf`,
    mainGroup: MAIN_GROUP,
    ruleset: RULESET,
    description: group.name,
    rules: group.rules.map(([ruleId, description]) => ({ ruleId, description })),
  };
}

function mainGroups(groups: readonly CatalogueGroup[]): JsonObject[] {
  return [{ name: MAIN_GROUP, ruleset: RULESET, ruleGroups: groups.map(groupModel) }];
}

/** The rules a zone on `plan` has (`GET /shield/waf/rules/{shieldZoneId}`). */
export function rulesForPlan(plan: number): JsonObject[] {
  return mainGroups(GROUPS.filter((g) => g.plan <= plan));
}

/** Each plan with the rules it adds to the plan below (`.../plan-segmentation`). */
export function rulesByPlan(): JsonObject[] {
  return PLAN_NAMES.map((planName, planValue) => ({
    planValue,
    planName,
    rules: mainGroups(GROUPS.filter((g) => g.plan === planValue)),
  }));
}
