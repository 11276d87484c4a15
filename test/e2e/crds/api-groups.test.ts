/**
 * One API group per family (docs/api.md): on the real apiserver, the OpenAPI v3 document
 * kubectl reads for a PullZoneConfig holds that kind only, every family is served at v1beta1,
 * and a kind added in another group (the Gadget test kind) leaves the PullZoneConfig document
 * byte for byte as it was — so what `kubectl apply` pays per object does not grow with the
 * number of kinds we ship. With one group for every kind (v1alpha1) the last check fails: the
 * added kind's paths and schema join every kind's document.
 */
import test from 'ava';
import { API_VERSION, isOwnGroup } from '../../../src/api-group.js';
import { apiGroupOf, crdNameOf } from '../../../src/controllers/kind-names.js';
import { KINDS } from '../../../src/controllers/kinds.js';
import { renderCrd } from '../../../hack/generate-crds.js';
import { GADGET } from '../../unit/controllers/fixtures/gadget/kind.js';
import { applyAllCrds } from '../support/crds.js';
import { applyCrd, kubectl, waitFor } from '../support/kube.js';

/** `/openapi/v3`: the served group-versions and the URL (with its content hash) of each. */
async function openApiIndex(): Promise<Record<string, string>> {
  const index = JSON.parse(await kubectl(['get', '--raw', '/openapi/v3'])) as {
    paths: Record<string, { serverRelativeURL: string }>;
  };
  return Object.fromEntries(
    Object.entries(index.paths).map(([path, v]) => [path, v.serverRelativeURL]),
  );
}

/** The OpenAPI v3 document of a group-version, as kubectl fetches it. */
async function documentOf(groupVersion: string): Promise<string> {
  return kubectl(['get', '--raw', `/openapi/v3/apis/${groupVersion}`]);
}

/** A group-version-kind as an OpenAPI schema names it. */
interface Gvk {
  group: string;
  kind: string;
}

/** Our kinds whose schemas a group-version document carries (`x-kubernetes-group-version-kind`). */
function kindsIn(document: string): string[] {
  const schemas = (JSON.parse(document) as { components: { schemas: Record<string, unknown> } })
    .components.schemas;
  const kinds = new Set<string>();
  for (const schema of Object.values(schemas)) {
    const gvks = (schema as { 'x-kubernetes-group-version-kind'?: Gvk[] })[
      'x-kubernetes-group-version-kind'
    ];
    for (const gvk of gvks ?? []) {
      if (isOwnGroup(gvk.group) && !gvk.kind.endsWith('List')) kinds.add(gvk.kind);
    }
  }
  return [...kinds].sort();
}

test.before(async () => {
  await applyAllCrds();
});

test('every family is served at v1beta1 in its own group, and nothing in the old one', async (t) => {
  const index = await openApiIndex();
  for (const kind of KINDS) {
    t.truthy(index[`apis/${apiGroupOf(kind)}/${API_VERSION}`], `${kind.kind}: ${apiGroupOf(kind)}`);
  }
  t.falsy(index['apis/cdn.operator.io/v1alpha1'], 'the single v1alpha1 group is not served');
});

test('the document kubectl reads for a PullZoneConfig carries that kind only', async (t) => {
  const pzc = KINDS.find((k) => k.kind === 'PullZoneConfig')!;
  const document = await documentOf(`${apiGroupOf(pzc)}/${API_VERSION}`);
  t.deepEqual(kindsIn(document), ['PullZoneConfig']);
  t.log(`pullzones.cdn.operator.io/v1beta1: ${Buffer.byteLength(document)} bytes`);
});

test('a kind added in another group leaves the PullZoneConfig document unchanged', async (t) => {
  const pzc = KINDS.find((k) => k.kind === 'PullZoneConfig')!;
  const pzcPath = `apis/${apiGroupOf(pzc)}/${API_VERSION}`;
  const gadgetPath = `apis/${apiGroupOf(GADGET)}/${API_VERSION}`;
  const before = await documentOf(`${apiGroupOf(pzc)}/${API_VERSION}`);
  const hashBefore = (await openApiIndex())[pzcPath];
  const { text } = await renderCrd(GADGET);
  await applyCrd(text, crdNameOf(GADGET));
  t.teardown(async () => {
    await kubectl(['delete', 'crd', crdNameOf(GADGET), '--ignore-not-found', '--wait=false']);
  });
  // The aggregated OpenAPI is rebuilt in the background after the CRD is Established.
  await waitFor(async () => ((await openApiIndex())[gadgetPath] ? true : undefined), 60_000);
  t.deepEqual(kindsIn(await documentOf(`${apiGroupOf(GADGET)}/${API_VERSION}`)), ['Gadget']);
  t.is((await openApiIndex())[pzcPath], hashBefore, 'same content hash');
  t.is(await documentOf(`${apiGroupOf(pzc)}/${API_VERSION}`), before, 'same document');
});
