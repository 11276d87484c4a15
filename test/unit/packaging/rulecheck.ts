/**
 * Runs hack/rulecheck (Prometheus' own rule-file and PromQL parsers, built and cached by
 * hack/build-binaries.sh) on rule files or expressions.
 */
import { resolveBuiltTool, run, type RunResult } from './tools.js';

/** What rulecheck reports for valid input. */
export interface RuleReport {
  metrics: string[];
  labels: Record<string, string[]>;
  rules: number;
}

/** `rulecheck rules FILE...`. */
export async function checkRuleFiles(files: string[]): Promise<RunResult> {
  return run(await resolveBuiltTool('rulecheck'), ['rules', ...files]);
}

/** `rulecheck exprs` on PromQL expressions. */
export async function checkExpressions(exprs: string[]): Promise<RunResult> {
  return run(await resolveBuiltTool('rulecheck'), ['exprs'], { input: JSON.stringify(exprs) });
}
