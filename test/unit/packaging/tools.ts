/**
 * Helpers shared by the packaging tests (unit and e2e): the repository paths of the chart,
 * the kustomize base and the Argo CD checks, the cached Go tools (helm, argocd-lua, rulecheck),
 * and a small process runner that never throws (tests assert on the exit code and output instead).
 */
import { execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';

const execFileAsync = promisify(execFile);

/** Repository root. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** The Helm chart directory. */
export const CHART = join(ROOT, 'deploy/helm/cdn-operator');
/** The kustomize base directory. */
export const KUSTOMIZE = join(ROOT, 'deploy/kustomize');
/** The single source of the Argo CD health check. */
export const HEALTH_LUA = join(ROOT, 'deploy/argocd/health.lua');

/** Result of {@link run}. */
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command with optional stdin; resolves with its exit code and output. */
export function run(
  command: string,
  args: string[],
  options: { input?: string; env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {},
): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? ROOT,
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ code: 127, stdout, stderr: stderr + err.message });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr });
    });
    // A child that exits without reading its input closes the pipe first: EPIPE is no failure.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

/**
 * The Go tools the tests run, each built from its module under hack/ and cached by
 * hack/build-binaries.sh. `make test-unit` and `make test-e2e` build them first (`make
 * test-tools`), so the suites need Go and nothing else for them (README prerequisites).
 */
export const BUILT_TOOLS = ['helm', 'argocd-lua', 'rulecheck'] as const;
/**
 * The certificates e2e's components (test/e2e/certificates), built by hack/build-binaries.sh
 * before `make test-e2e` starts (`make e2e-tools`): cert-manager's controllers, its CRDs and
 * RBAC, and Pebble.
 */
export const E2E_TOOLS = ['cert-manager', 'cert-manager-manifests', 'pebble'] as const;
/** One of {@link BUILT_TOOLS}. */
export type BuiltTool = (typeof BUILT_TOOLS)[number];

const builtPaths = new Map<BuiltTool, Promise<string>>();

/** Path of a cached Go tool; built on first use when the Makefile has not built it yet. */
export function resolveBuiltTool(tool: BuiltTool): Promise<string> {
  let path = builtPaths.get(tool);
  if (path === undefined) {
    path = execFileAsync(join(ROOT, 'hack/build-binaries.sh'), [tool], {
      env: { ...process.env, GOWORK: 'off' },
      maxBuffer: 16 * 1024 * 1024,
    }).then(({ stdout }) => {
      const line = stdout.split('\n').find((l) => l.startsWith(`${tool}=`));
      if (!line)
        throw new Error(`cannot locate ${tool}: no ${tool}= line in the build output: ${stdout}`);
      return line.slice(tool.length + 1);
    });
    builtPaths.set(tool, path);
  }
  return path;
}

/** Path of the cached helm binary (built with the Kubernetes version ldflags, see hack/build-binaries.sh). */
export function resolveHelm(): Promise<string> {
  return resolveBuiltTool('helm');
}

/** A Kubernetes object as parsed from YAML. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  [key: string]: unknown;
}

/** Parses a multi-document YAML stream, dropping empty documents. */
export function parseObjects(text: string): KubeObject[] {
  return parseAllDocuments(text)
    .map((d) => d.toJS() as KubeObject | null)
    .filter((o): o is KubeObject => o !== null && typeof o === 'object');
}

/** Options of {@link helmTemplate}. */
export interface TemplateOptions {
  release?: string;
  namespace?: string;
  extra?: string[];
  /** Chart directory (default: the repository's chart). */
  chart?: string;
}

/** Runs `helm template` on the chart; rejects with helm's stderr on failure. */
export async function renderChart(
  values: string[] = [],
  options: TemplateOptions = {},
): Promise<KubeObject[]> {
  const result = await helmTemplate(values, options);
  if (result.code !== 0) throw new Error(`cannot render the chart: ${result.stderr}`);
  return parseObjects(result.stdout);
}

/** Runs `helm template` and returns the raw result (for tests that expect failures). */
export async function helmTemplate(
  values: string[] = [],
  options: TemplateOptions = {},
): Promise<RunResult> {
  const helm = await resolveHelm();
  const sets = values.flatMap((v) => ['--set', v]);
  return run(helm, [
    'template',
    options.release ?? 'cdn-operator',
    options.chart ?? CHART,
    '--namespace',
    options.namespace ?? 'cdn-operator',
    ...sets,
    ...(options.extra ?? []),
  ]);
}

/** The objects of a kind (and optional name). */
export function objectsOf(objects: KubeObject[], kind: string, name?: string): KubeObject[] {
  return objects.filter((o) => o.kind === kind && (name === undefined || o.metadata.name === name));
}

/** The single object of a kind; throws when there is not exactly one. */
export function onlyOf(objects: KubeObject[], kind: string, name?: string): KubeObject {
  const found = objectsOf(objects, kind, name);
  if (found.length !== 1)
    throw new Error(`expected one ${kind}${name ? ` ${name}` : ''}, got ${found.length}`);
  return found[0]!;
}
