/**
 * The shield rule external client (shieldrule-common/external.ts) against an in-process cdn-sim
 * (strict: requests the official documents do not allow are rejected), for both families: one
 * POST to create, one PATCH with only what differs, nothing written when in sync, a plan
 * refusal (Basic: no custom WAF rule) reported as PlanNotSufficient and retried slowly (not
 * InvalidSpec, not a hot loop), a rule of another zone refused by id before any write, adoption
 * by name (exact, case-sensitive; ambiguous names refused; claimed rules skipped), crash
 * recovery of an unrecorded create, and Orphan/Delete.
 */
import test, { type ExecutionContext } from 'ava';
import { pino } from 'pino';
import {
  classifyRuleError,
  PLAN_RETRY_MS,
} from '../../../../src/controllers/shieldrule-common/controller.js';
import { RuleExternal } from '../../../../src/controllers/shieldrule-common/external.js';
import type { RuleFamily } from '../../../../src/controllers/shieldrule-common/family.js';
import type { RuleObject } from '../../../../src/controllers/shieldrule-common/zone.js';
import { RATE_LIMIT_FAMILY } from '../../../../src/controllers/shieldratelimit/family.js';
import { WAF_RULE_FAMILY } from '../../../../src/controllers/shieldwafrule/family.js';
import type { ExternalContext } from '../../../../src/runtime/types.js';
import { RATE_SPEC, RULE_KINDS, WAF_SPEC } from '../../../support/shield-rule-specs.js';
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

let zones = 0;
/** A fresh pull zone with a shield zone on `planType`; returns the shield zone id. */
async function shieldZone(h: SimClient, planType: number): Promise<number> {
  const seeded = (await h.admin('POST', '/_sim/seed', {
    pullZones: [{ Name: `unit-rules-${++zones}-${planType}` }],
  })) as { pullZones: number[] };
  const made = (await h.admin('POST', '/_sim/seed', {
    shieldZones: [{ pullZoneId: seeded.pullZones[0], planType }],
  })) as { shieldZones: number[] };
  return made.shieldZones[0]!;
}

async function writes(h: SimClient): Promise<string[]> {
  const body = (await h.admin('GET', '/_sim/calls')) as {
    log: { method: string; route: string }[];
  };
  return body.log.filter((c) => c.method !== 'GET').map((c) => c.route);
}

function rule(name: string, spec: Record<string, unknown>): RuleObject {
  return {
    apiVersion: 'cdn.operator.io/v1alpha1',
    kind: 'ShieldWafRule',
    metadata: { name, namespace: 'team-a', uid: `uid-${name}`, generation: 1 },
    spec: spec as RuleObject['spec'],
  };
}

function ctxOf(externalId?: string, extra: Partial<ExternalContext> = {}): ExternalContext {
  return {
    externalId,
    createPending: false,
    log: pino({ level: 'silent' }),
    signal: new AbortController().signal,
    ...extra,
  };
}

function external(h: SimClient, family: RuleFamily, shieldZoneId: number): RuleExternal {
  return new RuleExternal({ family, api: family.api(h.client), account: 'acct', shieldZoneId });
}

for (const { family, spec, prefix } of RULE_KINDS) {
  simTest(
    `${family.names.kind}: create, in sync, one minimal PATCH, drift, delete`,
    async (t, h) => {
      const zone = await shieldZone(h, 1);
      const ext = external(h, family, zone);
      const obj = rule('r1', { ...spec, shieldZoneId: zone, description: 'first' });
      t.false((await ext.observe(obj, ctxOf())).exists);
      const before = (await writes(h)).length;
      const made = await ext.create(obj, ctxOf());
      t.true(made.available, 'the answer shows the rule as wanted');
      t.deepEqual((await writes(h)).slice(before), [`POST ${prefix}`]);
      const id = made.externalId;

      const inSync = await ext.observe(obj, ctxOf(id));
      t.true(inSync.upToDate, JSON.stringify(inSync.diff));

      // A spec change: one PATCH carrying only the description.
      const changed = rule('r1', { ...spec, shieldZoneId: zone, description: 'second' });
      const seen = await ext.observe(changed, ctxOf(id));
      t.deepEqual(
        seen.diff.map((d) => d.field),
        ['ruleDescription'],
      );
      const mid = (await writes(h)).length;
      await ext.update(changed, seen, ctxOf(id));
      t.deepEqual((await writes(h)).slice(mid), [`PATCH ${prefix}/{id}`]);
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
      const drift = await ext.observe(changed, ctxOf(id));
      t.deepEqual(
        drift.diff.map((d) => d.field),
        ['ruleName', 'ruleConfiguration.value'],
      );
      await ext.update(changed, drift, ctxOf(id));
      t.true((await ext.observe(changed, ctxOf(id))).upToDate);

      const end = (await writes(h)).length;
      await ext.delete(changed, ctxOf(id));
      t.deepEqual((await writes(h)).slice(end), [`DELETE ${prefix}/{id}`]);
      await ext.delete(changed, ctxOf(id)); // already gone: success
    },
  );

  simTest(
    `${family.names.kind}: a rule of another zone is refused before any write`,
    async (t, h) => {
      const mine = await shieldZone(h, 1);
      const theirs = await shieldZone(h, 1);
      const made = await external(h, family, theirs).create(
        rule('theirs', { ...spec, shieldZoneId: theirs }),
        ctxOf(),
      );
      const before = (await writes(h)).length;
      const obj = rule('steal', { ...spec, shieldZoneId: mine, ruleId: Number(made.externalId) });
      const err = await t.throwsAsync(
        external(h, family, mine).observe(obj, ctxOf(made.externalId)),
      );
      t.regex(
        String(err?.message),
        new RegExp(`belongs to shield zone ${theirs}, not to shield zone ${mine}`),
      );
      t.deepEqual((await writes(h)).slice(before), []);
    },
  );

  simTest(
    `${family.names.kind}: adoption by name is exact, skips claimed rules, refuses two`,
    async (t, h) => {
      const zone = await shieldZone(h, 3);
      const api = family.api(h.client);
      const ext = external(h, family, zone);
      const base = new RuleExternal({ family, api, account: 'acct', shieldZoneId: zone });
      const a = await base.create(rule('Login', { ...spec, shieldZoneId: zone }), ctxOf());
      const byName = (name: string): RuleObject =>
        rule(name, { ...spec, shieldZoneId: zone, adoption: { policy: 'ByName' } });
      t.is((await ext.observe(byName('Login'), ctxOf())).externalId, a.externalId);
      await t.throwsAsync(ext.observe(byName('login'), ctxOf()), {
        message: /has no rule with this name/,
      });
      const b = await base.create(rule('Login', { ...spec, shieldZoneId: zone }), ctxOf());
      await t.throwsAsync(ext.observe(byName('Login'), ctxOf()), {
        message: /has 2 rules with this name/,
      });
      const claimed = (type: string, id: string): boolean =>
        type === family.names.kind && id === a.externalId;
      const seen = await ext.observe(
        byName('Login'),
        ctxOf(undefined, { claimedByOther: claimed }),
      );
      t.is(seen.externalId, b.externalId, 'the rule another object manages is skipped');
      // Crash recovery finds our own unrecorded create the same way; without ByName or a marker
      // nothing is read by name.
      const plain = rule('Login', { ...spec, shieldZoneId: zone });
      t.false((await ext.observe(plain, ctxOf())).exists);
      const recovered = await ext.observe(
        plain,
        ctxOf(undefined, { createPending: true, claimedByOther: claimed }),
      );
      t.is(recovered.externalId, b.externalId);
    },
  );
}

simTest(
  'a custom WAF rule on a Basic zone: PlanNotSufficient, retried slowly, nothing made',
  async (t, h) => {
    const zone = await shieldZone(h, 0);
    const ext = external(h, WAF_RULE_FAMILY, zone);
    const err = await t.throwsAsync(
      ext.create(rule('basic', { ...WAF_SPEC, shieldZoneId: zone }), ctxOf()),
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
    await limits.create(rule('rl1', { ...RATE_SPEC, shieldZoneId: zone }), ctxOf());
    await limits.create(rule('rl2', { ...RATE_SPEC, shieldZoneId: zone }), ctxOf());
    const third = await t.throwsAsync(
      limits.create(rule('rl3', { ...RATE_SPEC, shieldZoneId: zone }), ctxOf()),
    );
    t.is(classifyRuleError(third).reason, 'PlanNotSufficient');
  },
);

simTest(
  'an adopted rule (spec.ruleId) that does not exist is NotFound, never created',
  async (t, h) => {
    const zone = await shieldZone(h, 1);
    const ext = external(h, WAF_RULE_FAMILY, zone);
    const obj = rule('gone', { ...WAF_SPEC, shieldZoneId: zone, ruleId: 999999 });
    await t.throwsAsync(ext.observe(obj, ctxOf('999999')), {
      message: /999999 \(spec.ruleId\): it does not exist/,
    });
    await t.throwsAsync(ext.create(obj, ctxOf()), { message: /only adopted/ });
  },
);

simTest('Orphan leaves the rule in place', async (t, h) => {
  const zone = await shieldZone(h, 1);
  const ext = external(h, WAF_RULE_FAMILY, zone);
  const made = await ext.create(rule('keep', { ...WAF_SPEC, shieldZoneId: zone }), ctxOf());
  await ext.delete(
    rule('keep', { ...WAF_SPEC, shieldZoneId: zone, deletionPolicy: 'Orphan' }),
    ctxOf(made.externalId),
  );
  t.is((await WAF_RULE_FAMILY.api(h.client).list(zone)).length, 1);
});

simTest(
  'a raw shield zone id whose pull zone a PullZoneConfig manages, with no ShieldPolicy: refused before any write',
  async (t, h) => {
    const zone = await shieldZone(h, 1);
    const live = await h.client.getShieldZone(zone);
    const pullZoneId = Number(live.pullZoneId);
    const ext = new RuleExternal({
      family: WAF_RULE_FAMILY,
      api: WAF_RULE_FAMILY.api(h.client),
      account: 'acct',
      shieldZoneId: zone,
      pullZoneOf: async (id) => Number((await h.client.getShieldZone(id)).pullZoneId),
    });
    const obj = rule('rz', { ...WAF_SPEC, shieldZoneId: zone });
    const claims = (owned: string[]) => (type: string, id: string) =>
      owned.includes(`${type}/${id}`);
    const before = (await writes(h)).length;
    await t.throwsAsync(
      ext.observe(
        obj,
        ctxOf(undefined, { claimedByOther: claims([`PullZoneConfig/${pullZoneId}`]) }),
      ),
      { message: new RegExp(`spec.shieldZoneId ${zone}: it protects pull zone ${pullZoneId}`) },
    );
    t.deepEqual((await writes(h)).slice(before), [], 'nothing written');
    // A zone a ShieldPolicy of this namespace manages (the runtime refused any other): allowed.
    const managed = claims([`PullZoneConfig/${pullZoneId}`, `ShieldZone/${zone}`]);
    t.false((await ext.observe(obj, ctxOf(undefined, { claimedByOther: managed }))).exists);
    // An unmanaged pull zone: allowed.
    t.false((await ext.observe(obj, ctxOf(undefined, { claimedByOther: claims([]) }))).exists);
  },
);
