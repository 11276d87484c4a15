/**
 * Per-file environment for PullZoneConfig e2e tests: every CRD in crds/ applied, a unique
 * namespace with the default credentials Secret, an in-process cdn-sim and a real operator
 * process watching that namespace.
 */
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import { type KubeJson, waitForCondition } from '../support/kube.js';
import { secretYaml, startOperatorEnv, type OperatorEnv } from '../support/operator-env.js';

export const RESOURCE = 'pullzoneconfigs.pullzones.cdn.operator.io';
export const API_KEY = 'e2e-pzc-key';

export type Env = OperatorEnv;

/** Starts this kind's environment (see startOperatorEnv). */
export function startEnv(prefix: string): Promise<Env> {
  return startOperatorEnv(prefix, API_KEY);
}

export { secretYaml };

/** The PullZoneConfig YAML a user would write. */
export function pzcYaml(
  ns: string,
  name: string,
  spec: Record<string, unknown>,
  annotations: Record<string, string> = {},
): string {
  return JSON.stringify({
    apiVersion: 'pullzones.cdn.operator.io/v1beta1',
    kind: 'PullZoneConfig',
    metadata: { name, namespace: ns, annotations },
    spec,
  });
}

/** Waits until the object has a condition with the given status (and reason). */
export function waitCondition(
  ns: string,
  name: string,
  type: string,
  status: string,
  reason?: string,
  timeoutMs = 60_000,
): Promise<KubeJson> {
  return waitForCondition(RESOURCE, ns, name, type, status, reason, timeoutMs);
}

/** Writes the simulator saw (every non-GET call, plus loadFreeCertificate). */
export async function simWrites(sim: SimulatorHandle): Promise<{ route: string; path: string }[]> {
  const res = await fetch(`${sim.url}/_sim/calls`, {
    headers: { 'X-Sim-Admin-Token': sim.adminToken },
  });
  const body = (await res.json()) as { log: { method: string; route: string; path: string }[] };
  return body.log.filter((c) => c.method !== 'GET' || c.route.includes('loadFreeCertificate'));
}

/** Writes that touched one zone (by id in the path) or created zones. */
export async function zoneWrites(sim: SimulatorHandle, id: number): Promise<string[]> {
  return (await simWrites(sim))
    .filter((c) => c.path.startsWith(`/pullzone/${id}`) || c.path.startsWith('/pullzone/loadFree'))
    .map((c) => c.route);
}
