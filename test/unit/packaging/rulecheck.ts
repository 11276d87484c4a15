/**
 * Runs hack/rulecheck (Prometheus' own rule-file and PromQL parsers, built and cached by
 * hack/build-binaries.sh) on rule files or expressions.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT, run, type RunResult } from './tools.js';

const execFileAsync = promisify(execFile);

/** What rulecheck reports for valid input. */
export interface RuleReport {
  metrics: string[];
  labels: Record<string, string[]>;
  rules: number;
}

let binary: Promise<string> | undefined;

/** Path of the cached rulecheck binary (built on first use). */
export function resolveRulecheck(): Promise<string> {
  binary ??= execFileAsync(join(ROOT, 'hack/build-binaries.sh'), ['rulecheck'], {
    env: { ...process.env, GOWORK: 'off' },
    maxBuffer: 16 * 1024 * 1024,
  }).then(({ stdout }) => {
    const line = stdout.split('\n').find((l) => l.startsWith('rulecheck='));
    if (!line) throw new Error(`cannot locate rulecheck in build output: ${stdout}`);
    return line.slice('rulecheck='.length);
  });
  return binary;
}

/** `rulecheck rules FILE...`. */
export async function checkRuleFiles(files: string[]): Promise<RunResult> {
  return run(await resolveRulecheck(), ['rules', ...files]);
}

/** `rulecheck exprs` on PromQL expressions. */
export async function checkExpressions(exprs: string[]): Promise<RunResult> {
  return run(await resolveRulecheck(), ['exprs'], { input: JSON.stringify(exprs) });
}
