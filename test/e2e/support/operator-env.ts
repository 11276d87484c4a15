/**
 * Per-file environment for a kind's e2e tests: every CRD in crds/ applied (the operator waits
 * for all of its kinds), a unique namespace with the credentials Secret and a CdnAccount (named
 * after the namespace, open to it only, the operator's default account), an in-process cdn-sim
 * and a real operator process watching that namespace.
 */
import { startSimulator, type SimulatorHandle } from '../../../src/simulator/server.js';
import type { ResponseMode } from '../../../src/simulator/documents/responses.js';
import { applyNamespaceAccount, defaultAccountArgs, deleteAccount } from './account.js';
import { applyAllCrds } from './crds.js';
import { apply, createNamespace, deleteNamespace } from './kube.js';
import { startOperator, type OperatorProcess } from './operator.js';
import { freeCertificateHostnames } from '../../../hack/demo/example-hostnames.js';

/** A running operator against its own namespace and simulator. */
export interface OperatorEnv {
  ns: string;
  sim: SimulatorHandle;
  operator: OperatorProcess;
  /** Starts a fresh operator process (after a kill), same flags. */
  restartOperator(): Promise<OperatorProcess>;
  stop(): Promise<void>;
}

/** JSON of an Opaque (or TLS) Secret with string data. */
export function secretYaml(
  ns: string,
  name: string,
  data: Record<string, string>,
  type = 'Opaque',
): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Secret',
    type,
    metadata: { name, namespace: ns },
    stringData: data,
  });
}

/**
 * cdn-sim's response mode for the e2e tests: `CDN_E2E_SIM_RESPONSES=documented` runs every
 * lifecycle against answers that carry only documented members and statuses.
 */
export function e2eResponseMode(env: NodeJS.ProcessEnv = process.env): ResponseMode {
  const mode = env.CDN_E2E_SIM_RESPONSES;
  if (mode === undefined || mode === '' || mode === 'full') return 'full';
  if (mode === 'documented') return mode;
  throw new Error(`CDN_E2E_SIM_RESPONSES=${mode}: must be full or documented`);
}

/**
 * Starts the environment; `apiKey` is both the sim's key and the default account's key.
 * `options.responses` overrides CDN_E2E_SIM_RESPONSES.
 */
export async function startOperatorEnv(
  prefix: string,
  apiKey: string,
  options: { responses?: ResponseMode; args?: readonly string[] } = {},
): Promise<OperatorEnv> {
  const kubeconfig = process.env.KUBECONFIG;
  if (!kubeconfig)
    throw new Error('KUBECONFIG is not set: run through test/cluster/with-cluster.ts');
  await applyAllCrds();
  const ns = await createNamespace(prefix);
  await apply(secretYaml(ns, 'cdn-credentials', { apiKey }));
  await applyNamespaceAccount(ns, 'cdn-credentials');
  const sim = await startSimulator({
    apiKeys: [{ key: apiKey }],
    responses: options.responses ?? e2eResponseMode(),
    // The examples' hostnames point at the CDN from DNS outside cdn-sim.
    externalDns: freeCertificateHostnames(),
  });
  const launch = (): Promise<OperatorProcess> =>
    startOperator({
      kubeconfig,
      args: [
        '--namespace',
        ns,
        '--api-url',
        sim.url,
        ...defaultAccountArgs(ns),
        ...(options.args ?? []),
      ],
    });
  const env: OperatorEnv = {
    ns,
    sim,
    operator: await launch(),
    async restartOperator() {
      env.operator = await launch();
      return env.operator;
    },
    async stop() {
      await env.operator.stop();
      await sim.close();
      await deleteNamespace(ns);
      await deleteAccount(ns);
    },
  };
  return env;
}
