/**
 * kubectl-based helpers for e2e tests: apply YAML, get/patch/delete objects, wait for a
 * condition, and a unique namespace per test file. Every call uses `--kubeconfig` with the
 * given path, or `KUBECONFIG` from the environment (set by test/cluster/with-cluster.ts).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';

/** Result of a kubectl run. */
export interface KubectlResult {
  stdout: string;
  stderr: string;
  code: number;
}

/** Options shared by the helpers. */
export interface KubeOptions {
  /** Defaults to process.env.KUBECONFIG. */
  kubeconfig?: string;
}

function configOf(opts?: KubeOptions): string {
  const k = opts?.kubeconfig ?? process.env.KUBECONFIG;
  if (!k) throw new Error('KUBECONFIG is not set: run through test/cluster/with-cluster.ts');
  return k;
}

/** The kubectl to run: `KUBECTL` (a path, e.g. the one hack/build-binaries.sh kubectl built), else the one on PATH. */
export function kubectlBinary(): string {
  return process.env['KUBECTL'] || 'kubectl';
}

/** Runs kubectl; never throws (check `code`). */
export function kubectlRaw(
  args: string[],
  input?: string,
  opts?: KubeOptions,
): Promise<KubectlResult> {
  return new Promise((resolve) => {
    const child = execFile(
      kubectlBinary(),
      ['--kubeconfig', configOf(opts), ...args],
      { maxBuffer: 32 * 1024 * 1024 },
      (err, stdout, stderr) => {
        resolve({ stdout, stderr, code: err ? ((err as { code?: number }).code ?? 1) : 0 });
      },
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

/** Runs kubectl and returns stdout; throws with stderr on failure. */
export async function kubectl(args: string[], input?: string, opts?: KubeOptions): Promise<string> {
  const r = await kubectlRaw(args, input, opts);
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} failed: ${r.stderr.trim()}`);
  return r.stdout;
}

/** `kubectl apply -f -` with the given YAML (or JSON) text. */
export async function apply(yaml: string, opts?: KubeOptions): Promise<string> {
  return kubectl(['apply', '-f', '-'], yaml, opts);
}

/** A Kubernetes object as JSON. */
export type KubeJson = {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    uid?: string;
    generation?: number;
    resourceVersion?: string;
    annotations?: Record<string, string>;
    finalizers?: string[];
    deletionTimestamp?: string;
  };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown> & {
    conditions?: Array<{
      type: string;
      status: string;
      reason: string;
      message: string;
      observedGeneration?: number;
      lastTransitionTime: string;
    }>;
  };
  [k: string]: unknown;
};

/** Gets an object (`resource` like `widgets.test.cdn.operator.io`); undefined when absent. */
export async function getObject(
  resource: string,
  namespace: string,
  name: string,
  opts?: KubeOptions,
): Promise<KubeJson | undefined> {
  const r = await kubectlRaw(
    ['get', resource, name, '-n', namespace, '-o', 'json'],
    undefined,
    opts,
  );
  if (r.code !== 0) {
    if (/NotFound|not found/.test(r.stderr)) return undefined;
    throw new Error(`cannot get ${resource} ${namespace}/${name}: ${r.stderr.trim()}`);
  }
  return JSON.parse(r.stdout) as KubeJson;
}

/** Lists objects in a namespace. */
export async function listObjects(
  resource: string,
  namespace: string,
  opts?: KubeOptions,
): Promise<KubeJson[]> {
  const out = await kubectl(['get', resource, '-n', namespace, '-o', 'json'], undefined, opts);
  return (JSON.parse(out) as { items: KubeJson[] }).items;
}

/** Patches an object (merge patch by default). */
export async function patchObject(
  resource: string,
  namespace: string,
  name: string,
  patch: unknown,
  type: 'merge' | 'json' | 'strategic' = 'merge',
  opts?: KubeOptions,
): Promise<KubeJson> {
  const out = await kubectl(
    [
      'patch',
      resource,
      name,
      '-n',
      namespace,
      '--type',
      type,
      '-p',
      JSON.stringify(patch),
      '-o',
      'json',
    ],
    undefined,
    opts,
  );
  return JSON.parse(out) as KubeJson;
}

/** Deletes an object without waiting for finalizers. */
export async function deleteObject(
  resource: string,
  namespace: string,
  name: string,
  opts?: KubeOptions,
): Promise<void> {
  await kubectl(
    ['delete', resource, name, '-n', namespace, '--wait=false', '--ignore-not-found'],
    undefined,
    opts,
  );
}

/** Polls `fn` until it returns a value other than undefined/false, or throws after `timeoutMs`. */
export async function waitFor<T>(
  fn: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs: number,
  what = 'condition',
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastErr: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined && v !== false) return v;
    } catch (err) {
      lastErr = err;
    }
    if (Date.now() > deadline) {
      const why = lastErr instanceof Error ? ` (last error: ${lastErr.message})` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${why}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** The condition of `type` of an object, if present. */
export function conditionOf(
  obj: KubeJson | undefined,
  type: string,
): NonNullable<NonNullable<KubeJson['status']>['conditions']>[number] | undefined {
  return obj?.status?.conditions?.find((c) => c.type === type);
}

/** Creates a namespace with a unique name (`prefix-xxxxxx`) and returns its name. */
export async function createNamespace(prefix: string, opts?: KubeOptions): Promise<string> {
  const name = `${prefix}-${randomBytes(3).toString('hex')}`.toLowerCase().slice(0, 63);
  await kubectl(['create', 'namespace', name], undefined, opts);
  return name;
}

/** Deletes a namespace without waiting. */
export async function deleteNamespace(name: string, opts?: KubeOptions): Promise<void> {
  await kubectlRaw(
    ['delete', 'namespace', name, '--wait=false', '--ignore-not-found'],
    undefined,
    opts,
  );
}

/** Applies a CRD and waits until it is Established. */
export async function applyCrd(yaml: string, crdName: string, opts?: KubeOptions): Promise<void> {
  await apply(yaml, opts);
  await kubectl(
    ['wait', '--for=condition=Established', `crd/${crdName}`, '--timeout=60s'],
    undefined,
    opts,
  );
}

/**
 * Waits until `resource` `ns/name` has a condition `type` with `status` (and `reason`), written
 * for the object's current generation when the condition records one.
 */
export function waitForCondition(
  resource: string,
  ns: string,
  name: string,
  type: string,
  status: string,
  reason?: string,
  timeoutMs = 60_000,
): Promise<KubeJson> {
  return waitFor(
    async () => {
      const obj = await getObject(resource, ns, name);
      const c = conditionOf(obj, type);
      const genOk =
        c?.observedGeneration === undefined || c.observedGeneration === obj?.metadata.generation;
      return c && c.status === status && (!reason || c.reason === reason) && genOk
        ? obj
        : undefined;
    },
    timeoutMs,
    `${ns}/${name} ${type}=${status}${reason ? ` (${reason})` : ''}`,
    250,
  );
}
