/**
 * Per-file environment for ContainerApp e2e tests: every CRD in crds/ applied (the operator
 * waits for all of its kinds), a unique namespace with the default credentials Secret, an
 * in-process cdn-sim and a real operator process watching that namespace.
 */
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import { getObject, kubectl, waitFor, type KubeJson, waitForCondition } from '../support/kube.js';
import { secretYaml, startOperatorEnv, type OperatorEnv } from '../support/operator-env.js';

export const RESOURCE = 'containerapps.containers.cdn.operator.io';
export const API_KEY = 'e2e-capp-key';

export type Env = OperatorEnv;

/** Starts this kind's environment (see startOperatorEnv). */
export function startEnv(prefix: string): Promise<Env> {
  return startOperatorEnv(prefix, API_KEY);
}

export { secretYaml };

/** JSON of a ContainerApp as a user would write it. */
export function cappYaml(
  ns: string,
  name: string,
  spec: Record<string, unknown>,
  annotations: Record<string, string> = {},
): string {
  return JSON.stringify({
    apiVersion: 'containers.cdn.operator.io/v1beta1',
    kind: 'ContainerApp',
    metadata: { name, namespace: ns, annotations },
    spec,
  });
}

/** A container template with the image parts the platform requires. */
export function container(
  name: string,
  image: string,
  tag: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    name,
    imageName: image,
    imageNamespace: 'library',
    imageTag: tag,
    imageRegistryId: 'dockerhub',
    ...extra,
  };
}

/** Waits until the object has a condition with the given status (and reason) for its generation. */
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

/** Waits until `check` holds for the object (e.g. status reflects an update). */
export function waitObject(
  ns: string,
  name: string,
  check: (obj: KubeJson) => boolean,
  what: string,
  timeoutMs = 60_000,
): Promise<KubeJson> {
  return waitFor(
    async () => {
      const obj = await getObject(RESOURCE, ns, name);
      return obj && check(obj) ? obj : undefined;
    },
    timeoutMs,
    what,
    250,
  );
}

/** The simulator's call log (method, route, path, status). */
export async function simCalls(
  sim: SimulatorHandle,
): Promise<{ method: string; route: string; path: string; status: number }[]> {
  const res = await fetch(`${sim.url}/_sim/calls`, {
    headers: { 'X-Sim-Admin-Token': sim.adminToken },
  });
  const body = (await res.json()) as {
    log: { method: string; route: string; path: string; status: number }[];
  };
  return body.log;
}

/** Writes (non-GET calls) to `/mc/apps` since `from` (an index into the call log). */
export async function appWrites(sim: SimulatorHandle, from = 0): Promise<string[]> {
  return (await simCalls(sim))
    .slice(from)
    .filter((c) => c.method !== 'GET' && c.path.startsWith('/mc/apps'))
    .map((c) => c.route);
}

/** Sets the simulator's fault configuration. */
export async function setFaults(
  sim: SimulatorHandle,
  faults: Record<string, unknown>,
): Promise<void> {
  const res = await fetch(`${sim.url}/_sim/faults`, {
    method: 'PUT',
    headers: { 'X-Sim-Admin-Token': sim.adminToken, 'Content-Type': 'application/json' },
    body: JSON.stringify(faults),
  });
  if (!res.ok) throw new Error(`cannot set faults: ${res.status} ${await res.text()}`);
}

/** Container name -> id from status. */
export function containerIds(obj: KubeJson): Record<string, string> {
  const list = (obj.status?.containers as { name: string; id: string }[] | undefined) ?? [];
  return Object.fromEntries(list.map((c) => [c.name, c.id]));
}

/** Events of one object, as text (for "the value never appears" checks). */
export async function eventsText(ns: string): Promise<string> {
  return kubectl(['get', 'events', '-n', ns, '-o', 'json']);
}
