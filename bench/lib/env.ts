/**
 * One bench environment: a private control plane with the audit policy, the CRDs, cdn-sim
 * in a child process, a namespace with the credentials Secret, and operator processes
 * running under their own client identities. Everything started here is stopped by stop().
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CDN_ACCOUNT } from '../../src/controllers/cdnaccount/kind.js';
import { typeMetaOf } from '../../src/controllers/kind-names.js';
import { KubeClient, loadKubeConfig } from '../../src/runtime/kube-client.js';
import { startControlPlane, type ControlPlane } from '../../test/cluster/control-plane.js';
import { startOperator, type OperatorProcess } from '../../test/e2e/support/operator.js';
import { kubectl } from '../../test/e2e/support/kube.js';
import type { FaultConfig } from '../../src/simulator/faults.js';
import { AuditLog, auditPolicy } from './audit.js';
import { writeUserKubeconfig } from './identity.js';
import { SimProcess } from './sim.js';
import { OPERATOR_ENTRY } from './operator-stats.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Options of {@link BenchEnv.start}. */
export interface BenchEnvOptions {
  /** Client identities the operator processes will use (audit users). */
  operatorUsers?: string[];
  /** The API key accepted by the sim and stored in the credentials Secret. */
  apiKey?: string;
  /** More API keys the sim accepts (other accounts, e.g. a second tenant's). */
  extraApiKeys?: string[];
  faults?: FaultConfig;
}

/** Options of {@link BenchEnv.startOperator}. */
export interface OperatorOptions {
  user?: string;
  /** Kubeconfig to use instead of the user's own (e.g. one pointing at a proxy). */
  kubeconfig?: string;
  /** Management API URL (default: the sim's; e.g. a tagging proxy in front of it). */
  apiUrl?: string;
  /** Entry script (default src/main.ts; `dist/main.js` runs the built binary). */
  entry?: string;
  args?: string[];
  env?: Record<string, string>;
  waitReady?: boolean;
}

/** The default operator identity. */
/** The CdnAccount a bench operator uses by default (open to every namespace). */
function benchAccount(namespace: string): Record<string, unknown> {
  return {
    ...typeMetaOf(CDN_ACCOUNT),
    metadata: { name: `bench-${namespace}` },
    spec: {
      secretRef: { name: 'cdn-credentials' },
      namespaceSelector: {
        matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'Exists' }],
      },
    },
  };
}

export const OPERATOR_USER = 'cdn-operator-bench';

/**
 * The operator processes' environment: `opts.env`, plus `NODE_OPTIONS` from
 * `BENCH_OPERATOR_NODE_OPTIONS` when set (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`), so that
 * a developer can profile or trace the operator of a bench run without touching the bench's
 * own process, cdn-sim or kubectl.
 */
export function operatorEnv(
  env: Record<string, string> | undefined,
  from: NodeJS.ProcessEnv = process.env,
): Record<string, string> | undefined {
  const nodeOptions = from['BENCH_OPERATOR_NODE_OPTIONS'];
  if (nodeOptions === undefined || nodeOptions === '') return env;
  return { ...env, NODE_OPTIONS: nodeOptions };
}

/** See the module comment. */
export class BenchEnv {
  readonly operators: OperatorProcess[] = [];
  private readonly kubeconfigs = new Map<string, string>();

  private constructor(
    readonly cp: ControlPlane,
    readonly dir: string,
    readonly audit: AuditLog,
    readonly sim: SimProcess,
    readonly kube: KubeClient,
    readonly apiKey: string,
  ) {}

  /** Starts control plane, CRDs and sim. */
  static async start(opts: BenchEnvOptions = {}): Promise<BenchEnv> {
    const dir = await mkdtemp(join(tmpdir(), 'cdn-bench-'));
    const users = opts.operatorUsers ?? [OPERATOR_USER];
    const policy = await auditPolicy(dir, users);
    const cp = await startControlPlane({ apiserverArgs: policy.args });
    const apiKey = opts.apiKey ?? 'bench-api-key';
    let sim: SimProcess | undefined;
    try {
      sim = await SimProcess.start({
        apiKeys: [apiKey, ...(opts.extraApiKeys ?? [])],
        ...(opts.faults ? { faults: opts.faults } : {}),
      });
      const kube = await KubeClient.create(loadKubeConfig(cp.kubeconfigPath));
      const env = new BenchEnv(cp, dir, new AuditLog(policy.logPath), sim, kube, apiKey);
      for (const u of users) env.kubeconfigs.set(u, await writeUserKubeconfig(cp, dir, u));
      await env.applyCrds();
      return env;
    } catch (err) {
      await sim?.stop();
      await cp.stop();
      await rm(dir, { recursive: true, force: true });
      throw err;
    }
  }

  /** Path of the kubeconfig of an operator identity (its client certificate and key inside). */
  userKubeconfig(user: string): string | undefined {
    return this.kubeconfigs.get(user);
  }

  /** Admin kubeconfig path (the bench's own identity). */
  get kubeconfig(): string {
    return this.cp.kubeconfigPath;
  }

  private async applyCrds(): Promise<void> {
    const files = (await readdir(join(ROOT, 'crds'))).filter((f) => f.endsWith('.yaml')).sort();
    for (const f of files) {
      const yaml = await readFile(join(ROOT, 'crds', f), 'utf8');
      await kubectl(['apply', '--server-side', '-f', '-'], yaml, { kubeconfig: this.kubeconfig });
    }
    await kubectl(
      ['wait', '--for=condition=Established', 'crd', '--all', '--timeout=120s'],
      undefined,
      { kubeconfig: this.kubeconfig },
    );
  }

  /** The CRD plurals served (e.g. `pullzoneconfigs`). */
  async servedKinds(): Promise<string[]> {
    const out = await kubectl(
      ['get', 'crd', '-o', 'jsonpath={.items[*].spec.names.plural}'],
      undefined,
      {
        kubeconfig: this.kubeconfig,
      },
    );
    return out.split(/\s+/).filter(Boolean);
  }

  /** Creates a namespace and the credentials Secret `cdn-credentials` (key `apiKey`). */
  async createNamespace(name: string, secretData: Record<string, string> = {}): Promise<void> {
    await this.createOnce('/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name },
    });
    await this.createOnce(`/api/v1/namespaces/${name}/secrets`, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'cdn-credentials' },
      stringData: { apiKey: this.apiKey, ...secretData },
    });
  }

  /**
   * POSTs `body`, retrying a dropped connection (an apiserver on a loaded machine sometimes
   * hangs up); AlreadyExists after a retry means an earlier attempt got through.
   */
  private async createOnce(path: string, body: Record<string, unknown>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.kube.request({ method: 'POST', path, body, timeoutMs: 60_000 });
        return;
      } catch (err) {
        const text = String(err);
        if (attempt > 1 && /409|AlreadyExists|already exists/.test(text)) return;
        if (attempt >= 5 || /40[0-4]|409|422/.test(text)) throw err;
        await new Promise((r) => setTimeout(r, 1000 * attempt));
      }
    }
  }

  /** Starts an operator process pointed at the sim with default credentials in `namespace`. */
  async startOperator(namespace: string, opts: OperatorOptions = {}): Promise<OperatorProcess> {
    const user = opts.user ?? OPERATOR_USER;
    const kubeconfig = opts.kubeconfig ?? this.kubeconfigs.get(user);
    if (!kubeconfig) throw new Error(`cannot start operator: no identity ${user}`);
    // The default account: Secret `cdn-credentials` of `namespace`, open to every namespace.
    await kubectl(['apply', '-f', '-'], JSON.stringify(benchAccount(namespace)), {
      kubeconfig: this.kubeconfig,
    });
    const op = await startOperator({
      kubeconfig,
      entry: OPERATOR_ENTRY,
      args: [
        '--api-url',
        opts.apiUrl ?? this.sim.url,
        '--operator-namespace',
        namespace,
        '--default-account',
        `bench-${namespace}`,
        ...(opts.args ?? []),
      ],
      ...(operatorEnv(opts.env) ? { env: operatorEnv(opts.env) } : {}),
      ...(opts.entry ? { entry: opts.entry } : {}),
      ...(opts.waitReady !== undefined ? { waitReady: opts.waitReady } : {}),
      timeoutMs: 180_000,
    });
    this.operators.push(op);
    return op;
  }

  /** Stops one operator process (SIGTERM, then SIGKILL after `timeoutMs`). */
  async stopOperator(op: OperatorProcess, timeoutMs = 30_000): Promise<void> {
    await op.stop(timeoutMs).catch(() => undefined);
    const i = this.operators.indexOf(op);
    if (i >= 0) this.operators.splice(i, 1);
  }

  /** Stops operators (SIGKILL), sim and control plane; removes the temp dir. */
  async stop(): Promise<void> {
    for (const op of this.operators) await op.kill().catch(() => undefined);
    await this.sim.stop().catch(() => undefined);
    await this.cp.stop();
    await rm(this.dir, { recursive: true, force: true });
  }
}
