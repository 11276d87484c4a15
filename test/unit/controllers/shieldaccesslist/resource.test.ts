/**
 * The ShieldAccessList on the kit (resource.ts run by the kit's CrudExternal, as the operator runs
 * it) and its exporter against an in-process cdn-sim (strict:
 * requests the official documents do not allow are rejected; every body sent is checked against
 * the request schema): create is one POST and the configuration PATCH follows from the next
 * observation; one list PATCH per entry change, one configuration PATCH per action change,
 * nothing for a reorder; adoption by name (exact; ambiguous refused; claimed skipped) and by id
 * (a list of another zone is not found); the plan's limits refused before anything is sent and
 * classified as PlanNotSufficient (retried slowly); Orphan/Delete, and a delete whose zone is
 * unknown sends nothing and says why; export adopting by id and naming the exported
 * ShieldPolicy.
 */
import test, { type ExecutionContext } from 'ava';
import { pino } from 'pino';
import type { CustomAccessList } from '../../../../src/cdn/security-types.js';
import { CrudExternal, type CrudSeen } from '../../../../src/controllers/kit/crud-external.js';
import { exporter as exportShieldAccessLists } from '../../../../src/controllers/shieldaccesslist/export.js';
import {
  accessListResource,
  type AccessListRecord,
} from '../../../../src/controllers/shieldaccesslist/resource.js';
import type { ShieldAccessList } from '../../../../src/controllers/shieldaccesslist/types.js';
import { NameAllocator } from '../../../../src/controllers/shared/export-names.js';
import type {
  ExportContext,
  ExportResult,
} from '../../../../src/controllers/shared/manifest-export.js';
import {
  PLAN_RETRY_MS,
  shieldErrorClassifier,
} from '../../../../src/controllers/shieldrule-common/controller.js';
import type { Observation } from '../../../../src/runtime/types.js';
import { externalContext, seedShieldZone, simWriteRoutes } from '../shield-sim.js';
import { assertBodiesValid, startSimClient, type SimClient } from '../../cdn/sim-harness.js';

const BASE = '/shield/shield-zone/{shieldZoneId}/access-lists';

function simTest(title: string, fn: (t: ExecutionContext, h: SimClient) => Promise<void>): void {
  test(title, async (t) => {
    const h = await startSimClient(t, { retry: { maxAttempts: 1 } });
    await fn(t, h);
    assertBodiesValid(t, h.sent);
    t.is(h.sim.calls.snapshot().rejectedByDocument.count, 0, 'nothing rejected by the documents');
  });
}

function list(name: string, spec: Record<string, unknown>): ShieldAccessList {
  return {
    apiVersion: 'shield.cdn.operator.io/v1beta1',
    kind: 'ShieldAccessList',
    metadata: { name, namespace: 'team-a', uid: `uid-${name}`, generation: 1 },
    spec: spec as ShieldAccessList['spec'],
  };
}

type External = CrudExternal<ShieldAccessList, AccessListRecord>;

function external(h: SimClient, zone: number | undefined): External {
  return new CrudExternal(accessListResource({ client: h.client, account: 'acct' }, zone));
}

const SPEC = { type: 'IP', entries: ['192.0.2.1', '192.0.2.2'], action: 'Block' };

/** Observes and applies what differs; the writes it made. */
async function reconcile(
  h: SimClient,
  ext: External,
  obj: ShieldAccessList,
  id: string,
): Promise<{ seen: Observation<CrudSeen<AccessListRecord>>; sent: string[] }> {
  const seen = await ext.observe(obj, externalContext(id));
  const before = (await simWriteRoutes(h)).length;
  if (!seen.upToDate) await ext.update(obj, seen, externalContext(id));
  return { seen, sent: (await simWriteRoutes(h)).slice(before) };
}

simTest('a delete whose shield zone is unknown sends nothing and says why', async (t, h) => {
  const zone = await seedShieldZone(h, 1);
  const obj = list('l1', { ...SPEC, shieldZoneId: zone });
  const made = await external(h, zone).create(obj, externalContext());
  const before = (await simWriteRoutes(h)).length;
  const lines: string[] = [];
  const log = pino({ level: 'info' }, { write: (s: string): void => void lines.push(s) });
  await external(h, undefined).delete(obj, externalContext(made.externalId, { log }));
  t.is((await simWriteRoutes(h)).length, before, 'no DELETE');
  t.truthy(await h.client.getCustomAccessList(zone, Number(made.externalId)));
  t.like(JSON.parse(lines[0]!), {
    level: 40,
    msg: 'Cannot delete access list: its shield zone is unknown',
  });
});

simTest(
  'create = POST, then one configuration PATCH; one PATCH per change; drift; delete',
  async (t, h) => {
    const zone = await seedShieldZone(h, 1);
    const ext = external(h, zone);
    const obj = list('l1', { ...SPEC, shieldZoneId: zone });
    t.false((await ext.observe(obj, externalContext())).exists);
    const made = await ext.create(obj, externalContext());
    t.false(made.available, 'a new list is disabled: the configuration follows');
    t.deepEqual(await simWriteRoutes(h), [`POST ${BASE}`]);
    t.deepEqual(h.sent.at(-1)?.body, { name: 'l1', type: 0, content: '192.0.2.1\n192.0.2.2' });
    const id = made.externalId;

    let r = await reconcile(h, ext, obj, id);
    t.deepEqual(r.sent, [`PATCH ${BASE}/configurations/{id}`]);
    t.deepEqual(h.sent.at(-1)?.body, { isEnabled: true, action: 2 });
    r = await reconcile(h, ext, obj, id);
    t.true(r.seen.upToDate, JSON.stringify(r.seen.diff));
    t.like(r.seen.status, { listId: Number(id), shieldZoneId: zone, entryCount: 2, name: 'l1' });

    // Reordered: nothing. Entry added: the content only. Action: the configuration only.
    r = await reconcile(
      h,
      ext,
      list('l1', { ...SPEC, entries: ['192.0.2.2', '192.0.2.1'], shieldZoneId: zone }),
      id,
    );
    t.deepEqual(r.sent, []);
    const three = list('l1', {
      ...SPEC,
      entries: [...SPEC.entries, '192.0.2.3'],
      shieldZoneId: zone,
    });
    r = await reconcile(h, ext, three, id);
    t.deepEqual(r.sent, [`PATCH ${BASE}/{id}`]);
    t.deepEqual(h.sent.at(-1)?.body, { content: '192.0.2.1\n192.0.2.2\n192.0.2.3' });
    const log = list('l1', {
      ...SPEC,
      entries: three.spec!.entries,
      action: 'Log',
      shieldZoneId: zone,
    });
    r = await reconcile(h, ext, log, id);
    t.deepEqual(r.sent, [`PATCH ${BASE}/configurations/{id}`]);
    t.deepEqual(h.sent.at(-1)?.body, { action: 4 });

    // Drift: renamed outside; one PATCH with the name only.
    await h.client.updateCustomAccessList(zone, Number(id), { name: 'x' });
    r = await reconcile(h, ext, log, id);
    t.deepEqual(r.sent, [`PATCH ${BASE}/{id}`]);
    t.deepEqual(h.sent.at(-1)?.body, { name: 'l1' });

    // Orphan leaves it; Delete removes it; gone is success.
    await ext.delete(list('l1', { ...log.spec, deletionPolicy: 'Orphan' }), externalContext(id));
    t.truthy(await h.client.getCustomAccessList(zone, Number(id)));
    await ext.delete(log, externalContext(id));
    await ext.delete(log, externalContext(id));
    t.false(
      (await ext.observe(log, externalContext(id))).exists,
      'created by us and gone: created again',
    );
  },
);

simTest(
  'adoption: by name exactly (ambiguous refused, claimed skipped), by id on its zone only',
  async (t, h) => {
    const zone = await seedShieldZone(h, 1);
    const other = await seedShieldZone(h, 1);
    const mk = (z: number, name: string): Promise<CustomAccessList> =>
      h.client.createCustomAccessList(z, { name, type: 0, content: '192.0.2.1' });
    const a = await mk(zone, 'Team');
    await mk(zone, 'team');
    const ext = external(h, zone);
    const byName = list('x', {
      ...SPEC,
      shieldZoneId: zone,
      name: 'Team',
      adoption: { policy: 'ByName' },
    });
    t.is(
      (await ext.observe(byName, externalContext())).externalId,
      String(a.id),
      'case-sensitive, exact',
    );
    await mk(zone, 'Team');
    await t.throwsAsync(ext.observe(byName, externalContext()), {
      message: /2 access list resources match "Team"/,
    });
    const claimed = externalContext(undefined, {
      claimedByOther: (_type, id) => id === String(a.id),
    });
    t.not(
      (await ext.observe(byName, claimed)).externalId,
      String(a.id),
      'a claimed list is skipped',
    );
    const missing = list('x', {
      ...SPEC,
      shieldZoneId: zone,
      name: 'nope',
      adoption: { policy: 'ByName' },
    });
    await t.throwsAsync(ext.observe(missing, externalContext()), {
      message: /no access list matches it/,
    });

    // By id: the list of another zone is not found through this zone's path; nothing written.
    const foreign = await mk(other, 'foreign');
    const byId = list('y', {
      ...SPEC,
      shieldZoneId: zone,
      adoption: { policy: 'ById', id: foreign.id },
    });
    const before = (await simWriteRoutes(h)).length;
    await t.throwsAsync(ext.observe(byId, externalContext(String(foreign.id))), {
      message: /spec\.adoption\.id/,
    });
    t.is((await simWriteRoutes(h)).length, before);
  },
);

simTest(
  "the plan's limits: refused before the POST or PATCH, classified PlanNotSufficient",
  async (t, h) => {
    const zone = await seedShieldZone(h, 0); // cdn-sim Basic: 5 lists, 1000 entries
    const ext = external(h, zone);
    const many = Array.from({ length: 1001 }, (_, i) => `10.0.${i >> 8}.${i & 255}`);
    const before = (await simWriteRoutes(h)).length;
    const err = await t.throwsAsync(
      ext.create(list('big', { ...SPEC, entries: many, shieldZoneId: zone }), externalContext()),
    );
    t.is((await simWriteRoutes(h)).length, before, 'nothing sent');
    const classified = shieldErrorClassifier({})(err);
    t.like(classified, {
      reason: 'PlanNotSufficient',
      retryAfterMs: PLAN_RETRY_MS,
      notApplied: true,
    });
    t.regex(classified.message, /customEntryLimit/);

    for (let i = 0; i < 5; i++)
      await ext.create(list(`l${i}`, { ...SPEC, shieldZoneId: zone }), externalContext());
    await t.throwsAsync(
      ext.create(list('l5', { ...SPEC, shieldZoneId: zone }), externalContext()),
      {
        message: /customListLimit/,
      },
    );
    t.is((await simWriteRoutes(h)).length, before + 5);

    // Growing one list beyond the entry limit: refused before the PATCH.
    const grown = list('l0', { ...SPEC, entries: many.slice(0, 995), shieldZoneId: zone });
    const id = String((await h.client.listAccessLists(zone)).customLists![0]!.listId);
    const seen = await ext.observe(grown, externalContext(id));
    await t.throwsAsync(ext.update(grown, seen, externalContext(id)), {
      message: /customEntryLimit/,
    });
    t.is((await simWriteRoutes(h)).length, before + 5);
  },
);

simTest(
  'export: one object per list, adopting by id, naming the exported ShieldPolicy',
  async (t, h) => {
    const zone = await seedShieldZone(h, 1);
    const made = await h.client.createCustomAccessList(zone, {
      name: 'Blocked Ranges',
      description: 'outside',
      type: 1,
      content: '192.0.2.0/24\n198.51.100.0/24',
    });
    const lists = await h.client.listAccessLists(zone);
    const cfg = lists.customLists!.find((l) => l.listId === made.id)!.configurationId;
    await h.client.updateAccessListConfiguration(zone, cfg, { isEnabled: true, action: 3 });
    const run = async (policies: boolean): Promise<ExportResult> => {
      const result = { objects: [], secrets: [] } as unknown as ExportResult;
      const c = {
        client: h.client,
        opts: { namespace: 'ns', deletionPolicy: 'Orphan', account: {} },
        secretNames: new NameAllocator(),
        result,
        wants: (kind: string) => policies || kind === 'ShieldAccessList',
        names: () => new Map([[String(zone), 'shop-shield']]),
      } as unknown as ExportContext;
      await exportShieldAccessLists(c);
      return result;
    };
    const withPolicy = (await run(true)).objects;
    t.is(withPolicy.length, 1);
    t.like(withPolicy[0]?.manifest, {
      kind: 'ShieldAccessList',
      metadata: { namespace: 'ns' },
      spec: {
        adoption: { policy: 'ById', id: made.id },
        shieldPolicyRef: { name: 'shop-shield' },
        deletionPolicy: 'Orphan',
        name: 'Blocked Ranges',
        description: 'outside',
        type: 'CIDR',
        entries: ['192.0.2.0/24', '198.51.100.0/24'],
        enabled: true,
        action: 'Challenge',
      },
    });
    const alone = (await run(false)).objects[0]?.manifest as { spec: Record<string, unknown> };
    t.is(alone.spec.shieldZoneId, zone);
    t.false('shieldPolicyRef' in alone.spec);

    // The exported object observes in sync: applying it writes nothing.
    const ext = external(h, zone);
    const obj = list('blocked-ranges', { ...alone.spec });
    const seen = await ext.observe(obj, externalContext(String(made.id)));
    t.true(seen.upToDate, JSON.stringify(seen.diff));
  },
);

simTest(
  'an adopted list of another type is refused (TypeMismatch) and a malformed entry (InvalidSpec), nothing written',
  async (t, h) => {
    const zone = await seedShieldZone(h, 1);
    const ext = external(h, zone);
    const made = await h.client.createCustomAccessList(zone, {
      name: 'countries',
      type: 3,
      content: 'DE',
    });
    const before = (await simWriteRoutes(h)).length;
    const adopted = list('c', {
      ...SPEC,
      shieldZoneId: zone,
      adoption: { policy: 'ById', id: made.id },
    });
    await t.throwsAsync(ext.observe(adopted, externalContext(String(made.id))), {
      message: /holds Country entries and spec\.type is IP/,
    });
    const bad = list('b', { ...SPEC, entries: ['192.0.2.1', 'DE'], shieldZoneId: zone });
    await t.throwsAsync(ext.observe(bad, externalContext()), { message: /spec\.entries\[1\]/ });
    t.is((await simWriteRoutes(h)).length, before);
  },
);

simTest(
  'crash recovery: an unrecorded create is found by its provisional name, not made twice',
  async (t, h) => {
    const zone = await seedShieldZone(h, 1);
    const ext = external(h, zone);
    const obj = list('l1', { ...SPEC, shieldZoneId: zone });
    const token = { createToken: 'fedcba9876543210' };
    // A hand-made list with the wanted name is never taken for ours.
    await h.client.createCustomAccessList(zone, { name: 'l1', type: 0, content: '192.0.2.9' });
    const made = await ext.create(obj, externalContext(undefined, token));
    const seen = await ext.observe(
      obj,
      externalContext(undefined, { createPending: true, ...token }),
    );
    t.is(seen.externalId, made.externalId);
    t.false(
      (await ext.observe(obj, externalContext())).exists,
      'without a pending create, a list of the same name is not taken over',
    );
  },
);
