// exploration only (not committed): POST N objects of the PZC example, 8 in flight, to a group
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { KubeClient, loadKubeConfig } from './src/runtime/kube-client.js';
import { mapLimit } from './bench/lib/stats.js';
const [group, ns, n, phase] = process.argv.slice(2);
const ex = parseAllDocuments(readFileSync('examples/pullzoneconfig.yaml', 'utf8'))[0]!.toJS();
const kube = await KubeClient.create(loadKubeConfig(process.env.KUBECONFIG!));
const base = `/apis/${group}/v1alpha1/namespaces/${ns}/pullzoneconfigs`;
const names = Array.from({ length: Number(n) }, (_, i) => `l-${i}`);
const t0 = performance.now();
await mapLimit(names, 8, (name) =>
  phase === 'status'
    ? kube.request({ method: 'PATCH', path: `${base}/${name}/status`, contentType: 'application/merge-patch+json',
        body: { status: { observedGeneration: 1, pullZoneId: 5, conditions: [{ type: 'Ready', status: 'True', reason: 'Available', message: 'x', lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'), observedGeneration: 1 }] } } })
    : kube.request({ method: 'POST', path: base, body: { apiVersion: `${group}/v1alpha1`, kind: 'PullZoneConfig', metadata: { name, namespace: ns }, spec: ex.spec } }),
);
console.log(`${group} ${phase} ${n}: ${((performance.now() - t0) / 1000).toFixed(2)} s`);
kube.close();
