/**
 * The Gateway API CRDs (standard channel) for the routes e2e tests: fetched from the Go module
 * sigs.k8s.io/gateway-api by hack/fetch-gateway-api-crds.sh (cached outside the repository) and
 * installed with a server-side apply (the HTTPRoute CRD is too large for the last-applied
 * annotation of a client-side apply). Route status is written by the tests themselves, as a
 * load-balancer controller would (`setStatus`).
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../../support/openapi-docs.js';
import { kubectl } from '../support/kube.js';

const run = promisify(execFile);

/** The CRDs the tests need (of the standard channel's files). */
const NEEDED = ['gatewayclasses', 'gateways', 'httproutes'];

/** Fetches (or reuses) the CRDs and installs the needed ones, waiting until each is Established. */
export async function installGatewayApiCrds(): Promise<void> {
  const script = join(REPO_ROOT, 'hack/fetch-gateway-api-crds.sh');
  const { stdout } = await run(script, [], { timeout: 300_000 });
  const dir = stdout.trim().split('\n').at(-1)!;
  for (const file of readdirSync(dir)) {
    const plural = /_(\w+)\.yaml$/.exec(file)?.[1];
    if (!plural || !NEEDED.includes(plural)) continue;
    await kubectl(
      ['apply', '--server-side', '--force-conflicts', '--field-manager=e2e', '-f', '-'],
      readFileSync(join(dir, file), 'utf8'),
    );
    await kubectl([
      'wait',
      '--for=condition=Established',
      `crd/${plural}.gateway.networking.k8s.io`,
      '--timeout=60s',
    ]);
  }
}

/** Writes `status` of an object as its controller would (merge patch of the status subresource). */
export async function setStatus(
  resource: string,
  ns: string,
  name: string,
  status: Record<string, unknown>,
): Promise<void> {
  await kubectl([
    'patch',
    resource,
    name,
    '-n',
    ns,
    '--subresource=status',
    '--type',
    'merge',
    '-p',
    JSON.stringify({ status }),
  ]);
}
