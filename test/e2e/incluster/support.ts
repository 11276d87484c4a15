/**
 * Helpers of the in-cluster suite (hack/node/cluster.sh runs it inside the node's namespaces):
 * kubectl and helm against the node's apiserver, polling, the operator pods and their metrics.
 */
import { run, type RunResult } from '../../unit/packaging/tools.js';

export const kubeconfig = process.env.KUBECONFIG ?? '';
/** Address of the node inside its network namespace; pods reach host processes here. */
export const nodeIp = process.env.CDN_NODE_IP ?? '';
/** The operator image built here and loaded into the node's containerd. */
export const image = process.env.CDN_OPERATOR_IMAGE ?? '';

/** Throws unless the suite runs inside hack/node/cluster.sh. */
export function requireNode(): void {
  if (!kubeconfig || !nodeIp || !image) {
    throw new Error(
      'cannot run the in-cluster suite outside the local node: use make test-incluster',
    );
  }
}

/** kubectl against the node's apiserver. */
export function kubectl(args: string[], input?: string): Promise<RunResult> {
  return run('kubectl', ['--kubeconfig', kubeconfig, ...args], {
    ...(input === undefined ? {} : { input }),
    timeoutMs: 300_000,
  });
}

/** kubectl that must succeed; returns stdout. */
export async function kubectlOk(args: string[], input?: string): Promise<string> {
  const r = await kubectl(args, input);
  if (r.code !== 0) throw new Error(`cannot run kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** Polls `check` until it returns a value other than undefined, or throws after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  timeoutMs: number,
  check: () => Promise<T | undefined>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      const reason = last instanceof Error ? `: ${last.message}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${reason}`);
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/** One operator pod as the tests see it. */
export interface OperatorPod {
  name: string;
  ip: string;
  ready: boolean;
  phase: string;
  deleting: boolean;
}

interface PodList {
  items: {
    metadata: { name: string; deletionTimestamp?: string };
    status: {
      phase: string;
      podIP?: string;
      conditions?: { type: string; status: string }[];
    };
  }[];
}

/** The operator pods of a release (not the `helm test` pod). */
export async function operatorPods(namespace: string, release: string): Promise<OperatorPod[]> {
  const out = await kubectlOk([
    'get',
    'pods',
    '-n',
    namespace,
    '-l',
    `app.kubernetes.io/instance=${release},app.kubernetes.io/name=cdn-operator`,
    '-o',
    'json',
  ]);
  return (JSON.parse(out) as PodList).items.map((p) => ({
    name: p.metadata.name,
    ip: p.status.podIP ?? '',
    phase: p.status.phase,
    deleting: p.metadata.deletionTimestamp !== undefined,
    ready: (p.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'),
  }));
}

/** The value of an unlabelled gauge in a pod's /metrics, undefined when unreachable. */
export async function podGauge(pod: OperatorPod, metric: string): Promise<number | undefined> {
  try {
    const res = await fetch(`http://${pod.ip}:8080/metrics`, { signal: AbortSignal.timeout(3000) });
    const line = (await res.text()).split('\n').find((l) => l.startsWith(`${metric} `));
    return line === undefined ? undefined : Number(line.split(' ')[1]);
  } catch {
    return undefined;
  }
}

/** The holder of the operator's Lease, without the `_<uuid>` suffix (the pod name). */
export async function leaseHolderPod(namespace: string, lease: string): Promise<string> {
  const holder = await kubectlOk([
    'get',
    'lease',
    lease,
    '-n',
    namespace,
    '-o',
    'jsonpath={.spec.holderIdentity}',
  ]);
  return holder.replace(/_[^_]*$/, '');
}
