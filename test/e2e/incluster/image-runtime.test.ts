/**
 * The image built here runs on the active LTS Node.js of hack/node-versions: a pod of the
 * operator image (as its own non-root user, the chart's read-only root filesystem) runs
 * `node --version` and must report exactly that release.
 */
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { readNodeVersions } from '../../support/node-versions.js';
import { image, kubectl, kubectlOk, requireNode, waitFor } from './support.js';

const ns = `incluster-runtime-${randomBytes(3).toString('hex')}`;

function podYaml(): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'node-version', namespace: ns },
    spec: {
      restartPolicy: 'Never',
      containers: [
        {
          name: 'node',
          image,
          imagePullPolicy: 'Never',
          command: ['node', '--version'],
          securityContext: {
            runAsNonRoot: true,
            readOnlyRootFilesystem: true,
            allowPrivilegeEscalation: false,
          },
        },
      ],
    },
  });
}

test.before(() => requireNode());

test.after.always(async () => {
  await kubectl(['delete', 'namespace', ns, '--wait=false', '--ignore-not-found']);
});

test('the operator image reports the active LTS Node.js of hack/node-versions', async (t) => {
  const { lts } = readNodeVersions();
  await kubectlOk(['create', 'namespace', ns]);
  await kubectlOk(['apply', '-f', '-'], podYaml());
  const phase = await waitFor('the node --version pod to finish', 180_000, async () => {
    const out = await kubectlOk([
      'get',
      'pod',
      'node-version',
      '-n',
      ns,
      '-o',
      'jsonpath={.status.phase}',
    ]);
    return out === 'Succeeded' || out === 'Failed' ? out : undefined;
  });
  const logs = (await kubectlOk(['logs', 'node-version', '-n', ns])).trim();
  t.is(phase, 'Succeeded', `node --version failed in the image: ${logs}`);
  t.is(logs, `v${lts}`);
});
