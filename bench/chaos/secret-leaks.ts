/**
 * Scenario 7: the whole suite runs with a recognisable API key and Secret values; this scan
 * counts their occurrences (raw and base64) in every operator log (killed replicas
 * included), in all Events and in every managed object (metadata, spec, status).
 */
import { kubectl } from '../../test/e2e/support/kube.js';
import type { BenchEnv } from '../lib/env.js';
import { check, type ScenarioResult } from './common.js';

/** Recognisable secret values for one environment. */
export interface ChaosSecrets {
  apiKey: string;
  values: Record<string, string>;
}

/** Makes `CHAOS-SECRET-KEY-<random>` and two Secret values. */
export function makeChaosSecrets(): ChaosSecrets {
  const r = (): string => Math.random().toString(36).slice(2, 10).toUpperCase();
  return {
    apiKey: `CHAOS-SECRET-KEY-${r()}`,
    values: { extraToken: `CHAOS-SECRET-VALUE-${r()}`, password: `CHAOS-SECRET-PASS-${r()}` },
  };
}

function needles(s: ChaosSecrets): string[] {
  const raw = [s.apiKey, ...Object.values(s.values)];
  return [...raw, ...raw.map((v) => Buffer.from(v).toString('base64'))];
}

function occurrences(text: string, list: string[]): number {
  return list.reduce((n, needle) => n + (text.split(needle).length - 1), 0);
}

/** Counts leaks in one environment. */
export async function scanLeaks(
  env: BenchEnv,
  secrets: ChaosSecrets,
  label: string,
): Promise<ScenarioResult> {
  const list = needles(secrets);
  const logs = env.operators.map((op) => op.output()).join('\n');
  const kc = { kubeconfig: env.kubeconfig };
  const events = await kubectl(['get', 'events', '-A', '-o', 'yaml'], undefined, kc).catch(
    (e: unknown) => String(e),
  );
  const plurals = (await env.servedKinds()).join(',');
  const objects = plurals
    ? await kubectl(['get', plurals, '-A', '-o', 'yaml'], undefined, kc).catch((e: unknown) =>
        String(e),
      )
    : '';
  const inLogs = occurrences(logs, list);
  const inEvents = occurrences(events, list);
  const inObjects = occurrences(objects, list);
  return {
    scenario: `7. secrets never leak (${label})`,
    params: {
      apiKeyPrefix: 'CHAOS-SECRET-KEY-',
      valuePrefixes: ['CHAOS-SECRET-VALUE-', 'CHAOS-SECRET-PASS-'],
    },
    figures: {
      logBytes: logs.length,
      eventBytes: events.length,
      objectBytes: objects.length,
      inLogs,
      inEvents,
      inObjects,
      operatorProcesses: env.operators.length,
    },
    checks: [
      check(
        '0 occurrences in operator logs',
        inLogs === 0,
        `${inLogs} in ${logs.length} bytes of logs`,
      ),
      check('0 occurrences in events', inEvents === 0, `${inEvents}`),
      check('0 occurrences in managed objects', inObjects === 0, `${inObjects}`),
      check(
        'scan had material',
        logs.length > 0 && events.length > 0,
        `${logs.length} log bytes, ${events.length} event bytes`,
      ),
    ],
  };
}
