/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-argument -- documents and response bodies are read loosely here */
/**
 * cdn-sim's documented response mode: answers carry only the members the official document
 * declares for the operation and status, and the document's success status. Checked with an
 * independent walk (every member of the body must be declared by the schema, like
 * `additionalProperties: false` everywhere) for representative operations of each area.
 */
import test, { type ExecutionContext } from 'ava';
import { loadDocuments, defaultDocumentsDir } from '../../../src/simulator/documents/load.js';
import { documentedResponse, projectOnSchema } from '../../../src/simulator/documents/responses.js';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import type { Area, RouteDef } from '../../../src/simulator/types.js';
import { parseCli } from '../../../src/simulator/cli-args.js';
import { loadOpenApiDocument, type ApiArea } from '../../support/openapi-docs.js';
import { call, createPullZone, rawCall, startTestSim } from '../../support/sim-client.js';

type Json = Record<string, any>;

const docs = {
  core: loadOpenApiDocument('core'),
  mc: loadOpenApiDocument('mc'),
  shield: loadOpenApiDocument('shield'),
} as Record<ApiArea, Json>;

function resolve(doc: Json, schema: any): Json | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  if (typeof schema.$ref !== 'string') return schema as Json;
  const name = (schema.$ref as string).split('/').pop() ?? '';
  return resolve(doc, doc.components.schemas[name]);
}

/** Every schema a value may follow: the schema and its allOf/oneOf/anyOf members. */
function branches(doc: Json, schema: any, out: Json[] = []): Json[] {
  const s = resolve(doc, schema);
  if (!s || out.includes(s)) return out;
  out.push(s);
  for (const key of ['allOf', 'oneOf', 'anyOf'])
    for (const b of s[key] ?? []) branches(doc, b, out);
  return out;
}

/** Paths of members the schema does not declare (an additionalProperties:false walk). */
function undeclared(doc: Json, schema: any, value: unknown, path = ''): string[] {
  if (value === null || typeof value !== 'object') return [];
  const all = branches(doc, schema);
  if (Array.isArray(value)) {
    const items = all.map((s) => s.items).filter((i) => i !== undefined);
    return value.flatMap((v, i) =>
      items.length === 0 ? [] : undeclared(doc, { anyOf: items }, v, `${path}/${i}`),
    );
  }
  const withProps = all.filter((s) => s.properties || s.additionalProperties !== undefined);
  if (withProps.length === 0) return [];
  const problems: string[] = [];
  for (const [name, member] of Object.entries(value)) {
    const declared = withProps.map((s) => s.properties?.[name]).filter((p) => p !== undefined);
    const extra = withProps.map((s) => s.additionalProperties).filter((p) => p && p !== true);
    if (withProps.some((s) => s.additionalProperties === true)) continue;
    if (declared.length > 0)
      problems.push(...undeclared(doc, { anyOf: declared }, member, `${path}/${name}`));
    else if (extra.length > 0)
      problems.push(...undeclared(doc, { anyOf: extra }, member, `${path}/${name}`));
    else problems.push(`${path}/${name}`);
  }
  return problems;
}

/** The documented response schema of an operation and status. */
function responseSchema(area: ApiArea, method: string, template: string, status: number): unknown {
  const path = area === 'mc' ? template.replace(/^\/mc/, '') : template;
  const op = docs[area].paths[path][method.toLowerCase()];
  const content = op.responses[String(status)]?.content;
  return content?.['application/json']?.schema ?? content?.[Object.keys(content)[0] ?? '']?.schema;
}

let full: SimulatorHandle;
let documented: SimulatorHandle;
test.before(async () => {
  full = await startTestSim();
  documented = await startTestSim({ responses: 'documented' });
});
test.after.always(async () => {
  await full?.close();
  await documented?.close();
});

/** A pull zone with a shield zone and an app with an endpoint, in one simulator. */
async function seed(
  t: ExecutionContext,
  sim: SimulatorHandle,
): Promise<{ pullZoneId: number; shieldZoneId: number; appId: string }> {
  const pullZoneId = await createPullZone(t, sim, `docresp-${sim.port}`);
  const shield = await call(t, sim, {
    area: 'shield',
    method: 'POST',
    template: '/shield/shield-zone',
    body: { pullZoneId, shieldZone: { wafEnabled: true } },
  });
  const app = await call(t, sim, {
    area: 'mc',
    method: 'POST',
    template: '/mc/apps',
    body: {
      name: 'docresp',
      runtimeType: 'shared',
      autoScaling: { min: 1, max: 1 },
      regionSettings: { allowedRegionIds: ['DE'], requiredRegionIds: ['DE'] },
      containerTemplates: [
        {
          name: 'web',
          imageName: 'nginx',
          imageNamespace: 'library',
          imageTag: '1.25',
          imageRegistryId: 'dockerhub',
          endpoints: [
            {
              displayName: 'http',
              cdn: { isSslEnabled: true, portMappings: [{ containerPort: 80 }] },
            },
          ],
        },
      ],
    },
  });
  t.is(app.status, 201, JSON.stringify(app.body));
  const ids = {
    pullZoneId,
    shieldZoneId: (shield.body as Json).data.shieldZone.shieldZoneId as number,
    appId: (app.body as Json).id as string,
  };
  // Members no document declares, as a newer service (or a simulator slip) would add them.
  sim.state.pullZones.get(ids.pullZoneId)!.record.SimUndocumented = 'x';
  sim.state.apps.get(ids.appId)!.app.simUndocumented = 'x';
  sim.state.shieldZones.get(ids.shieldZoneId)!.simUndocumented = 'x';
  return ids;
}

interface Probe {
  area: ApiArea;
  method: string;
  template: string;
  params: Record<string, string | number>;
  body?: unknown;
}

function probes(ids: { pullZoneId: number; shieldZoneId: number; appId: string }): Probe[] {
  return [
    { area: 'core', method: 'GET', template: '/pullzone/{id}', params: { id: ids.pullZoneId } },
    { area: 'mc', method: 'GET', template: '/mc/apps/{appId}', params: { appId: ids.appId } },
    {
      area: 'shield',
      method: 'GET',
      template: '/shield/shield-zone/{shieldZoneId}',
      params: { shieldZoneId: ids.shieldZoneId },
    },
    {
      area: 'shield',
      method: 'GET',
      template: '/shield/shield-zone/get-by-pullzone/{pullZoneId}',
      params: { pullZoneId: ids.pullZoneId },
    },
    {
      area: 'shield',
      method: 'PATCH',
      template: '/shield/shield-zone',
      params: {},
      body: { shieldZoneId: ids.shieldZoneId, shieldZone: { wafExecutionMode: 0 } },
    },
  ];
}

test('documented mode: representative answers carry no undocumented member and the documented status', async (t) => {
  const ids = await seed(t, documented);
  for (const p of probes(ids)) {
    const res = await call(t, documented, p);
    t.is(res.status, 200, `${p.method} ${p.template}`);
    const schema = responseSchema(p.area, p.method, p.template, res.status);
    t.truthy(schema, `${p.method} ${p.template} declares a body`);
    t.deepEqual(undeclared(docs[p.area], schema, res.body), [], `${p.method} ${p.template}`);
  }
});

test('full mode is unchanged: the same answers keep the undocumented members', async (t) => {
  const fullIds = await seed(t, full);
  const extra: string[] = [];
  for (const p of probes(fullIds)) {
    const res = await rawCall(full, p);
    const schema = responseSchema(p.area, p.method, p.template, res.status);
    const found = undeclared(docs[p.area], schema, res.body);
    extra.push(...found.map((f) => `${p.method} ${p.template} ${f}`));
    const projected = projectOnSchema(docs[p.area], schema, res.body);
    t.deepEqual(undeclared(docs[p.area], schema, projected), []);
  }
  t.true(extra.length >= 4, extra.join(', ')); // the four reads show the seeded members
  t.log(`undocumented members in full mode: ${extra.length} (${extra.join(', ')})`);
});

test('projection drops undeclared members recursively and keeps declared ones', (t) => {
  const schema = responseSchema('core', 'GET', '/pullzone/{id}', 200);
  const value = {
    Id: 7,
    Name: 'z',
    SimInternal: { secret: 1 },
    Hostnames: [{ Id: 1, Value: 'z.b-cdn.net', Extra: true }],
  };
  const projected = projectOnSchema(docs.core, schema, value) as Json;
  t.deepEqual(undeclared(docs.core, schema, value), ['/SimInternal', '/Hostnames/0/Extra']);
  t.deepEqual(projected, { Id: 7, Name: 'z', Hostnames: [{ Id: 1, Value: 'z.b-cdn.net' }] });
  t.deepEqual(undeclared(docs.core, schema, projected), []);
});

const documents = loadDocuments(defaultDocumentsDir());
const route = (area: Area, method: string, template: string): RouteDef => ({
  area,
  method,
  template,
  handler: () => ({ status: 500 }),
});

test('status: the only documented success status replaces ours; the contract exception wins', (t) => {
  // The document declares only 204 (no body) for addHostname.
  const hostname = documentedResponse(
    documents,
    route('core', 'POST', '/pullzone/{id}/addHostname'),
    { status: 200, body: { Ok: true } },
  );
  t.deepEqual(hostname, { status: 204, body: undefined });
  // POST /pullzone: the document's 201 has no body; contract-exceptions.ts declares the record.
  const created = documentedResponse(documents, route('core', 'POST', '/pullzone'), {
    status: 201,
    body: { Id: 5, Name: 'n', NotInTheModel: 1 },
  });
  t.deepEqual(created, { status: 201, body: { Id: 5, Name: 'n' } });
  // Several documented success statuses (shield PATCH: 200 and 202): ours stays.
  const patched = documentedResponse(documents, route('shield', 'PATCH', '/shield/shield-zone'), {
    status: 200,
    body: { data: {}, extra: 1 },
  });
  t.is(patched.status, 200);
  t.false('extra' in (patched.body as Json));
  // Errors keep their status.
  const missing = documentedResponse(documents, route('mc', 'GET', '/mc/apps/{appId}'), {
    status: 404,
    body: { title: 'x' },
  });
  t.is(missing.status, 404);
});

test('full mode: the raw answer of GET /pullzone/{id} is not projected', async (t) => {
  const id = await createPullZone(t, full, 'docresp-raw');
  const res = await rawCall(full, {
    area: 'core',
    method: 'GET',
    template: '/pullzone/{id}',
    params: { id },
  });
  t.is(res.status, 200);
  t.is(full.state.pullZones.get(id)?.record.Name, (res.body as Json).Name);
});

test('cli: --responses and CDN_SIM_RESPONSES', (t) => {
  t.is(parseCli(['--api-key', 'K'], {}).responses, 'full');
  t.is(parseCli(['--api-key', 'K', '--responses', 'documented'], {}).responses, 'documented');
  t.is(parseCli(['--api-key', 'K'], { CDN_SIM_RESPONSES: 'documented' }).responses, 'documented');
  t.is(
    parseCli(['--api-key', 'K', '--responses', 'full'], { CDN_SIM_RESPONSES: 'documented' })
      .responses,
    'full',
  );
  t.throws(() => parseCli(['--api-key', 'K', '--responses', 'lean'], {}), {
    message: /--responses lean: must be one of full, documented/,
  });
});
