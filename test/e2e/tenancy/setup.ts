/**
 * Environment of the tenancy suite: two tenant namespaces (team-a, team-b) and an ops
 * namespace holding the default credentials, one real operator watching both tenants, one
 * cdn-sim behind a small HTTP proxy that can answer chosen GETs with a 404 (the platform's
 * "observe says gone" while the resource still exists).
 */
import {
  accountJson,
  defaultAccountArgs,
  deleteAccount,
  namespacesSelector,
} from '../support/account.js';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CdnClient } from '../../../src/cdn/client.js';
import { startSimulator, type SimulatorHandle } from '../../../src/simulator/server.js';
import { applyAllCrds } from '../support/crds.js';
import {
  apply,
  conditionOf,
  createNamespace,
  deleteNamespace,
  getObject,
  waitFor,
  type KubeJson,
  waitForCondition,
} from '../support/kube.js';
import { secretYaml } from '../support/operator-env.js';
import { startOperator, type OperatorProcess } from '../support/operator.js';
import { crdNameOf } from '../../../src/controllers/kind-names.js';
import { apiVersionOfKind, findKind } from '../../../src/controllers/kinds.js';
import { FINALIZER } from '../../../src/runtime/reasons.js';

export const API_KEY = 'e2e-tenancy-key';
export const PZC = 'pullzoneconfigs.pullzones.cdn.operator.io';
export const CAPP = 'containerapps.containers.cdn.operator.io';
export const SHP = 'shieldpolicies.shield.cdn.operator.io';

/** Answers the next `count` GETs whose path matches with a real 404 of the simulator. */
export interface NotFoundProxy {
  url: string;
  arm(path: RegExp, count: number): void;
  /** How many armed 404s were served. */
  served(): number;
  close(): Promise<void>;
}

async function forward(
  target: string,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers))
    if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
  const method = req.method ?? 'GET';
  const answer = await fetch(`${target}${path}`, {
    method,
    headers,
    ...(chunks.length > 0 && method !== 'GET' ? { body: Buffer.concat(chunks) } : {}),
  });
  const body = Buffer.from(await answer.arrayBuffer());
  const out: Record<string, string> = {};
  answer.headers.forEach((v, k) => {
    if (k !== 'content-encoding' && k !== 'transfer-encoding' && k !== 'content-length') out[k] = v;
  });
  res.writeHead(answer.status, out);
  res.end(body);
}

/** Starts the proxy in front of `target`. */
export async function startNotFoundProxy(target: string): Promise<NotFoundProxy> {
  let armed: { path: RegExp; left: number } | undefined;
  let served = 0;
  const server: Server = createServer((req, res) => {
    const url = req.url ?? '/';
    const hit = req.method === 'GET' && armed && armed.left > 0 && armed.path.test(url);
    if (hit && armed) {
      armed.left--;
      served++;
    }
    // A real 404 of the simulator (an id that never exists), so the client parses it as usual.
    forward(target, req, res, hit ? '/pullzone/999999999' : url).catch(() => {
      res.writeHead(502);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    arm(path, count) {
      armed = { path, left: count };
    },
    served: () => served,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The running suite environment. */
export interface TenancyEnv {
  teamA: string;
  teamB: string;
  sim: SimulatorHandle;
  proxy: NotFoundProxy;
  operator: OperatorProcess;
  /** A CDN client talking to the simulator directly (the "outside world"). */
  cdn: CdnClient;
  stop(): Promise<void>;
}

/** Starts the environment (see the module comment). */
export async function startTenancyEnv(): Promise<TenancyEnv> {
  const kubeconfig = process.env.KUBECONFIG;
  if (!kubeconfig)
    throw new Error('KUBECONFIG is not set: run through test/cluster/with-cluster.ts');
  await applyAllCrds();
  const ops = await createNamespace('e2e-ten-ops');
  const teamA = await createNamespace('e2e-team-a');
  const teamB = await createNamespace('e2e-team-b');
  await apply(secretYaml(ops, 'cdn-credentials', { apiKey: API_KEY }));
  // The default account, open to both tenant namespaces only (not to the ops namespace).
  await apply(accountJson(ops, 'cdn-credentials', namespacesSelector(teamA, teamB)));
  const sim = await startSimulator({ apiKeys: [{ key: API_KEY }] });
  const proxy = await startNotFoundProxy(sim.url);
  const operator = await startOperator({
    kubeconfig,
    args: ['--namespace', `${teamA},${teamB}`, '--api-url', proxy.url, ...defaultAccountArgs(ops)],
  });
  const cdn = new CdnClient({ baseUrl: sim.url, credentials: API_KEY, retry: { maxAttempts: 1 } });
  return {
    teamA,
    teamB,
    sim,
    proxy,
    operator,
    cdn,
    async stop() {
      await operator.stop();
      await proxy.close();
      await deleteAccount(ops);
      await sim.close();
      for (const ns of [teamA, teamB, ops]) await deleteNamespace(ns);
    },
  };
}

/** The resource name kubectl takes for `kind` (`pullzoneconfigs.pullzones.cdn.operator.io`). */
export function resourceOf(kind: string): string {
  const found = findKind(kind);
  if (!found) throw new Error(`cannot name the resource of ${kind}: no such kind`);
  return crdNameOf(found);
}

/** JSON of a managed object as a user writes it. */
export function objectYaml(
  kind: string,
  ns: string,
  name: string,
  spec: Record<string, unknown>,
  annotations: Record<string, string> = {},
): string {
  return JSON.stringify({
    apiVersion: apiVersionOfKind(kind),
    kind,
    metadata: { name, namespace: ns, annotations },
    spec,
  });
}

/** `json` (a manifest) with the operator's finalizer, written by the tenant itself. */
export function withTenantFinalizer(json: string): string {
  const obj = JSON.parse(json) as { metadata: Record<string, unknown> };
  return JSON.stringify({ ...obj, metadata: { ...obj.metadata, finalizers: [FINALIZER] } });
}

/** A ContainerApp spec with one nginx container (plus `extra`). */
export function appSpec(
  name: string,
  extra: Record<string, unknown> = {},
  template: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    name,
    autoScaling: { min: 1, max: 1 },
    containerTemplates: [
      {
        name: 'web',
        imageName: 'nginx',
        imageNamespace: 'library',
        imageTag: '1.25',
        imageRegistryId: 'dockerhub',
        ...template,
      },
    ],
    ...extra,
  };
}

/** Waits until the object's condition has this status (and reason) for its generation. */
export function waitCondition(
  resource: string,
  ns: string,
  name: string,
  type: string,
  status: string,
  reason?: string,
  timeoutMs = 60_000,
): Promise<KubeJson> {
  return waitForCondition(resource, ns, name, type, status, reason, timeoutMs);
}

/** The Synced reason of an object once it has one (its first pass is done). */
export async function syncedReason(
  kind: string,
  ns: string,
  name: string,
): Promise<string | undefined> {
  const resource = resourceOf(kind);
  const obj = await waitFor(
    async () => {
      const o = await getObject(resource, ns, name);
      return conditionOf(o, 'Synced') ? o : undefined;
    },
    60_000,
    `${ns}/${name} synced`,
  );
  return conditionOf(obj, 'Synced')?.reason;
}

/** Waits until the object is gone from the apiserver (its finalizer released). */
export function waitGone(resource: string, ns: string, name: string): Promise<boolean> {
  return waitFor(
    async () => (await getObject(resource, ns, name)) === undefined,
    60_000,
    `${ns}/${name} deleted`,
    250,
  );
}

/** One call the simulator logged. */
export interface SimCall {
  method: string;
  route: string;
  path: string;
}

/** Clears the simulator's call log. */
export async function resetCalls(sim: SimulatorHandle): Promise<void> {
  await fetch(`${sim.url}/_sim/calls`, {
    method: 'DELETE',
    headers: { 'X-Sim-Admin-Token': sim.adminToken },
  });
}

/** Every platform call (reads included) logged since the last reset. */
export async function simCalls(sim: SimulatorHandle): Promise<SimCall[]> {
  const res = await fetch(`${sim.url}/_sim/calls`, {
    headers: { 'X-Sim-Admin-Token': sim.adminToken },
  });
  return ((await res.json()) as { log: SimCall[] }).log;
}

/** The platform writes (POST/PUT/PATCH/DELETE) logged since the last reset. */
export async function simWrites(sim: SimulatorHandle): Promise<SimCall[]> {
  return (await simCalls(sim)).filter((c) => c.method !== 'GET');
}

/** Sleeps (lets the operator make any call it would make). */
export function settle(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
