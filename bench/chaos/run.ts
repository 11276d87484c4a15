/**
 * `make chaos` entry: runs the groups of the fault-injection suite (bench/chaos/suite.ts,
 * slow-platform-group.ts)
 * at full size and writes `bench/results/chaos-<stamp>.json`, `chaos-<stamp>.md` and
 * `chaos-latest.md`. Exit code 1 when any check failed. `--group
 * faults|restarts|slow-platform|leader-stop` runs one
 * group, `--short` the `make test` sizes, `--merge <json>...` combines earlier runs' results.
 */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { ScenarioResult } from './common.js';
import { runFaultsGroup, runLeaderStopGroup, runRestartsGroup, type Profile } from './suite.js';
import { runSlowPlatformGroup } from './slow-platform-group.js';

/** The groups `--group` can name. */
const GROUPS: Record<string, (p: Profile, l: (m: string) => void) => Promise<ScenarioResult[]>> = {
  faults: runFaultsGroup,
  restarts: runRestartsGroup,
  'leader-stop': runLeaderStopGroup,
  'slow-platform': runSlowPlatformGroup,
};

function log(msg: string): void {
  process.stderr.write(`[chaos ${new Date().toISOString()}] ${msg}\n`);
}

function renderMarkdown(results: ScenarioResult[], meta: Record<string, unknown>): string {
  const lines = [
    `# cdn-operator fault-injection suite — ${String(meta.startedAt)}`,
    '',
    '```json',
    JSON.stringify(meta, null, 2),
    '```',
    '',
  ];
  for (const r of results) {
    const ok = r.checks.every((c) => c.ok);
    lines.push(
      `## ${r.scenario} — ${ok ? 'passed' : '**FAILED**'}`,
      '',
      '| check | result | detail |',
      '|---|---|---|',
    );
    for (const c of r.checks)
      lines.push(
        `| ${c.name} | ${c.ok ? 'ok' : '**failed**'} | ${c.detail.replace(/\|/g, '\\|')} |`,
      );
    lines.push('', '```json', JSON.stringify(r.figures, null, 2), '```', '');
  }
  return lines.join('\n');
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      group: { type: 'string' },
      short: { type: 'boolean' },
      out: { type: 'string' },
      merge: { type: 'string', multiple: true },
    },
  });
  const profile: Profile = values.short ? 'short' : 'full';
  const startedAt = new Date().toISOString();
  const results: ScenarioResult[] = [];
  // --merge a.json --merge b.json: one report from groups run separately (e.g. in parallel).
  for (const file of values.merge ?? []) {
    const prev = JSON.parse(await readFile(file, 'utf8')) as { results: ScenarioResult[] };
    results.push(...prev.results);
  }
  const groups = values.merge
    ? []
    : values.group
      ? [values.group]
      : ['faults', 'restarts', 'slow-platform'];
  for (const g of groups) {
    try {
      const group = GROUPS[g];
      if (!group) throw new Error(`unknown group ${g} (known: ${Object.keys(GROUPS).join(', ')})`);
      results.push(...(await group(profile, log)));
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      log(`group ${g} failed: ${message}`);
      results.push({
        scenario: `group ${g}`,
        params: {},
        figures: {},
        checks: [{ name: 'group ran to the end', ok: false, detail: message }],
      });
    }
  }
  const meta = {
    startedAt,
    finishedAt: new Date().toISOString(),
    profile,
    ...(values.merge ? { mergedFrom: values.merge } : {}),
    gitCommit: execFileSync('git', ['rev-parse', '--short', 'HEAD']).toString().trim(),
    cpus: cpus().length,
    loadAvgAtEnd: loadavg(),
  };
  const dir = values.out ?? 'bench/results';
  await mkdir(dir, { recursive: true });
  const stamp = startedAt.replace(/:/g, '-').replace(/\.\d+Z$/, 'Z');
  const md = renderMarkdown(results, meta);
  await writeFile(
    join(dir, `chaos-${stamp}.json`),
    JSON.stringify({ meta, results }, null, 2) + '\n',
  );
  await writeFile(join(dir, `chaos-${stamp}.md`), md);
  await writeFile(join(dir, 'chaos-latest.md'), md);
  const failed = results.flatMap((r) =>
    r.checks.filter((c) => !c.ok).map((c) => `${r.scenario}: ${c.name}: ${c.detail}`),
  );
  for (const f of failed) log(`FAILED ${f}`);
  log(`report written: ${join(dir, `chaos-${stamp}.md`)}`);
  return failed.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(
      `chaos failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exit(1);
  },
);
