/**
 * The shield rule external client (the kit's CrudExternal on shieldrule-common/external.ts)
 * against an in-process cdn-sim (strict: requests the official documents do not allow are
 * rejected), for both families: one
 * POST to create, one PATCH with only what differs, nothing written when in sync, a plan
 * refusal (Basic: no custom WAF rule) reported as PlanNotSufficient and retried slowly (not
 * InvalidSpec, not a hot loop), a rule of another zone refused by id before any write, adoption
 * by name (exact, case-sensitive; ambiguous names refused; claimed rules skipped), crash
 * recovery of an unrecorded create, and Orphan/Delete.
 */
import test, { type ExecutionContext } from 'ava';
import type { ControllerDeps } from '../../../../src/controllers/shared/deps.js';
import type { ClassifiedError } from '../../../../src/runtime/errors.js';
import {
  createRuleKind,
  PLAN_RETRY_MS,
} from '../../../../src/controllers/shieldrule-common/controller.js';
import { CrudExternal } from '../../../../src/controllers/kit/crud-external.js';
import {
  ruleResource,
  type RuleExternalOptions,
} from '../../../../src/controllers/shieldrule-common/external.js';
import type { RuleFamily } from '../../../../src/controllers/shieldrule-common/family.js';
import type { RuleObject } from '../../../../src/controllers/shieldrule-common/zone.js';
import { RATE_LIMIT_FAMILY } from '../../../../src/controllers/shieldratelimit/family.js';
import { WAF_RULE_FAMILY } from '../../../../src/controllers/shieldwafrule/family.js';
import { RATE_SPEC, RULE_KINDS, WAF_SPEC } from '../../../support/shield-rule-specs.js';
import { externalContext, seedShieldZone, simWriteRoutes } from '../shield-sim.js';
import { assertBodiesValid, startSimClient, type SimClient } from '../../cdn/sim-harness.js';

/**
 * A test with its own simulator; at its end every body sent matches the official request
 * schema and the simulator rejected nothing by the documents.
 */
function simTest(title: string, fn: (t: ExecutionContext, h: SimClient) => Promise<void>): void {
  test(title, async (t) => {
    const h = await startSimClient(t, { retry: { maxAttempts: 1 } });
    await fn(t, h);
    assertBodiesValid(t, h.sent);
    t.is(
      h.sim.calls.snapshot().rejectedByDocument.count,
      0,
      'no request rejected by the documents',
    );
  });
}

function rule(name: string, spec: Record<string, unknown>): RuleObject {
  return {
    apiVersion: 'shield.cdn.operator.io/v1beta1',
    kind: 'ShieldWafRule',
    metadata: { name, namespace: 'team-a', uid: `uid-${name}`, generation: 1 },
    spec: spec,
  };
}

type RuleExternal = CrudExternal<RuleObject, unknown>;

/** The kind's own classifier (its connect is not used here: no deps needed). */
const classifyRuleError = (err: unknown): ClassifiedError =>
  createRuleKind(WAF_RULE_FAMILY, {} as ControllerDeps).classifyError(err);

/** The rule kinds' external client, as the controller builds it. */
function ruleExternal(o: RuleExternalOptions): RuleExternal {
  return new CrudExternal(ruleResource(o));
}

function external(h: SimClient, family: RuleFamily, shieldZoneId: number): RuleExternal {
  return ruleExternal({ family, api: family.api(h.client), account: 'acct', shieldZoneId });
}

for (const { family, spec, prefix } of RULE_KINDS) {
  simTest(
    `${family.names.kind}: create, in sync, one minimal PATCH, drift, delete`,
    async (t, h) => {
      const zone = await seedShieldZone(h, 1);
      const ext = external(h, family, zone);
      const obj = rule('r1', { ...spec, shieldZoneId: zone, description: 'first' });
      t.false((await ext.observe(obj, externalContext())).exists);
      const before = (await simWriteRoutes(h)).length;
      const made = await ext.create(obj, externalContext());
      // The kit's create leaves availability to the same pass's observe (below: in sync).
      t.like(made.status, { ruleId: Number(made.externalId), shieldZoneId: zone, name: 'r1' });
      t.deepEqual((await simWriteRoutes(h)).slice(before), [`POST ${prefix}`]);
      const id = made.externalId;

      const inSync = await ext.observe(obj, externalContext(id));
      t.true(inSync.upToDate, JSON.stringify(inSync.diff));

      // A spec change: one PATCH carrying only the description.
      const changed = rule('r1', { ...spec, shieldZoneId: zone, description: 'second' });
      const seen = await ext.observe(changed, externalContext(id));
      t.deepEqual(
        seen.diff.map((d) => d.field),
        ['ruleDescription'],
      );
      const mid = (await simWriteRoutes(h)).length;
      await ext.update(changed, seen, externalContext(id));
      t.deepEqual((await simWriteRoutes(h)).slice(mid), [`PATCH ${prefix}/{id}`]);
      t.deepEqual(
        h.sent.at(-1)?.body,
        { ruleDescription: 'second' },
        'only the member that differs',
      );

      // Drift made outside: the name and the value, restored by one PATCH.
      await family.api(h.client).update(Number(id), {
        ruleName: 'renamed',
        ruleConfiguration: {
          ...(await family.api(h.client).get(Number(id))).ruleConfiguration,
          value: '/x',
        },
      });
      const drift = await ext.observe(changed, externalContext(id));
      t.deepEqual(
        drift.diff.map((d) => d.field),
        ['ruleName', 'ruleConfiguration.value'],
      );
      await ext.update(changed, drift, externalContext(id));
      t.true((await ext.observe(changed, externalContext(id))).upToDate);

      const end = (await simWriteRoutes(h)).length;
      await ext.delete(changed, externalContext(id));
      t.deepEqual((await simWriteRoutes(h)).slice(end), [`DELETE ${prefix}/{id}`]);
      await ext.delete(changed, externalContext(id)); // already gone: success
    },
  );

  simTest(
    `${family.names.kind}: a rule of another zone is refused before any write`,
    async (t, h) => {
      const mine = await seedShieldZone(h, 1);
      const theirs = await seedShieldZone(h, 1);
      const made = await external(h, family, theirs).create(
        rule('theirs', { ...spec, shieldZoneId: theirs }),
        externalContext(),
      );
      const before = (await simWriteRoutes(h)).length;
      const obj = rule('steal', {
        ...spec,
        shieldZoneId: mine,
        adoption: { policy: 'ById', id: Number(made.externalId) },
      });
      const err = await t.throwsAsync(
        external(h, family, mine).observe(obj, externalContext(made.externalId)),
      );
      t.regex(
        String(err?.message),
        new RegExp(`belongs to shield zone ${theirs}, not to shield zone ${mine}`),
      );
      t.deepEqual((await simWriteRoutes(h)).slice(before), []);
    },
  );

  simTest(
    `${family.names.kind}: adoption by name is exact, skips claimed rules, refuses two`,
    async (t, h) => {
      const zone = await seedShieldZone(h, 3);
      const api = family.api(h.client);
      const ext = external(h, family, zone);
      const base = ruleExternal({ family, api, account: 'acct', shieldZoneId: zone });
      const a = await base.create(
        rule('Login', { ...spec, shieldZoneId: zone }),
        externalContext(),
      );
      const byName = (name: string): RuleObject =>
        rule(name, { ...spec, shieldZoneId: zone, adoption: { policy: 'ByName' } });
      t.is((await ext.observe(byName('Login'), externalContext())).externalId, a.externalId);
      await t.throwsAsync(ext.observe(byName('login'), externalContext()), {
        message: new RegExp(`no ${family.what} matches it`),
      });
      const b = await base.create(
        rule('Login', { ...spec, shieldZoneId: zone }),
        externalContext(),
      );
      await t.throwsAsync(ext.observe(byName('Login'), externalContext()), {
        message: new RegExp(`2 ${family.what} resources match "Login"`),
      });
      const claimed = (type: string, id: string): boolean =>
        type === family.names.kind && id === a.externalId;
      const seen = await ext.observe(
        byName('Login'),
        externalContext(undefined, { claimedByOther: claimed }),
      );
      t.is(seen.externalId, b.externalId, 'the rule another object manages is skipped');
      // Without ByName nothing is read by name; the recovery of a lost create never takes a
      // rule of that name (names are not unique): only its own provisional name is proof.
      const plain = rule('Login', { ...spec, shieldZoneId: zone });
      t.false((await ext.observe(plain, externalContext())).exists);
      const token = { createPending: true, createToken: '00112233aabbccdd' };
      t.false((await ext.observe(plain, externalContext(undefined, token))).exists);
      const lost = await base.create(plain, externalContext(undefined, token));
      const recovered = await ext.observe(plain, externalContext(undefined, token));
      t.is(recovered.externalId, lost.externalId, 'found by its provisional name');
    },
  );
}

simTest(
  'a custom WAF rule on a Basic zone: PlanNotSufficient, retried slowly, nothing made',
  async (t, h) => {
    const zone = await seedShieldZone(h, 0);
    const ext = external(h, WAF_RULE_FAMILY, zone);
    const err = await t.throwsAsync(
      ext.create(rule('basic', { ...WAF_SPEC, shieldZoneId: zone }), externalContext()),
    );
    const c = classifyRuleError(err);
    t.like(c, {
      class: 'retryable',
      reason: 'PlanNotSufficient',
      retryAfterMs: PLAN_RETRY_MS,
      notApplied: true,
    });
    t.regex(c.message, new RegExp(`shield zone ${zone}.*customWafRulesLimit`));
    t.deepEqual(await WAF_RULE_FAMILY.api(h.client).list(zone), []);
    // The Basic plan still allows rate limits (two).
    const limits = external(h, RATE_LIMIT_FAMILY, zone);
    await limits.create(rule('rl1', { ...RATE_SPEC, shieldZoneId: zone }), externalContext());
    await limits.create(rule('rl2', { ...RATE_SPEC, shieldZoneId: zone }), externalContext());
    const third = await t.throwsAsync(
      limits.create(rule('rl3', { ...RATE_SPEC, shieldZoneId: zone }), externalContext()),
    );
    t.is(classifyRuleError(third).reason, 'PlanNotSufficient');
  },
);

simTest(
  'an adopted rule (spec.adoption.id) that does not exist is NotFound (the runtime never creates it)',
  async (t, h) => {
    const zone = await seedShieldZone(h, 1);
    const ext = external(h, WAF_RULE_FAMILY, zone);
    const obj = rule('gone', {
      ...WAF_SPEC,
      shieldZoneId: zone,
      adoption: { policy: 'ById', id: 999999 },
    });
    await t.throwsAsync(ext.observe(obj, externalContext('999999')), {
      message: /999999 \(spec.adoption.id\): it does not exist/,
    });
  },
);

simTest('Orphan leaves the rule in place', async (t, h) => {
  const zone = await seedShieldZone(h, 1);
  const ext = external(h, WAF_RULE_FAMILY, zone);
  const made = await ext.create(
    rule('keep', { ...WAF_SPEC, shieldZoneId: zone }),
    externalContext(),
  );
  await ext.delete(
    rule('keep', { ...WAF_SPEC, shieldZoneId: zone, deletionPolicy: 'Orphan' }),
    externalContext(made.externalId),
  );
  t.is((await WAF_RULE_FAMILY.api(h.client).list(zone)).length, 1);
});

simTest(
  'a raw shield zone id whose pull zone a PullZoneConfig manages, with no ShieldPolicy: refused before any write',
  async (t, h) => {
    const zone = await seedShieldZone(h, 1);
    const live = await h.client.getShieldZone(zone);
    const pullZoneId = Number(live.pullZoneId);
    const ext = ruleExternal({
      family: WAF_RULE_FAMILY,
      api: WAF_RULE_FAMILY.api(h.client),
      account: 'acct',
      shieldZoneId: zone,
      pullZoneOf: async (id) => Number((await h.client.getShieldZone(id)).pullZoneId),
    });
    const obj = rule('rz', { ...WAF_SPEC, shieldZoneId: zone });
    const claims = (owned: string[]) => (type: string, id: string) =>
      owned.includes(`${type}/${id}`);
    const before = (await simWriteRoutes(h)).length;
    await t.throwsAsync(
      ext.observe(
        obj,
        externalContext(undefined, { claimedByOther: claims([`PullZoneConfig/${pullZoneId}`]) }),
      ),
      { message: new RegExp(`spec.shieldZoneId ${zone}: it protects pull zone ${pullZoneId}`) },
    );
    t.deepEqual((await simWriteRoutes(h)).slice(before), [], 'nothing written');
    // A zone a ShieldPolicy of this namespace manages (the runtime refused any other): allowed.
    const managed = claims([`PullZoneConfig/${pullZoneId}`, `ShieldZone/${zone}`]);
    t.false(
      (await ext.observe(obj, externalContext(undefined, { claimedByOther: managed }))).exists,
    );
    // An unmanaged pull zone: allowed.
    t.false(
      (await ext.observe(obj, externalContext(undefined, { claimedByOther: claims([]) }))).exists,
    );
  },
);
