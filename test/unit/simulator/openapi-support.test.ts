import test from 'ava';
import { CONTRACT_EXCEPTIONS } from '../../../src/simulator/contract-exceptions.js';
import { convertNullable, validateRequest, validateResponse } from '../../support/openapi.js';

test('convertNullable turns nullable types into unions and wraps refs', (t) => {
  t.deepEqual(convertNullable({ type: 'string', nullable: true }), { type: ['string', 'null'] });
  t.deepEqual(convertNullable({ type: 'integer', enum: [0, 1], nullable: true }), {
    type: ['integer', 'null'],
    enum: [0, 1, null],
  });
  t.deepEqual(convertNullable({ $ref: '#/x', nullable: true }), {
    anyOf: [{ $ref: '#/x' }, { type: 'null' }],
  });
});

test('validateResponse rejects bodies that break the official schema', (t) => {
  t.notDeepEqual(validateResponse('core', 'GET', '/pullzone/{id}', 200, { Id: 'one' }), []);
  t.notDeepEqual(
    validateResponse('core', 'POST', '/pullzone/{id}', 400, { ErrorKey: 'x', Extra: 1 }),
    [],
  );
  t.notDeepEqual(
    validateResponse('core', 'POST', '/pullzone/{id}', 404, { unexpected: true }),
    [],
    'no body declared',
  );
  t.notDeepEqual(
    validateResponse('core', 'POST', '/pullzone/{id}', 418, undefined),
    [],
    'undeclared status',
  );
  t.notDeepEqual(
    validateResponse('shield', 'GET', '/shield/shield-zones', 200, {
      data: [{ shieldZoneId: 'x' }],
    }),
    [],
  );
});

test('validateRequest: ids on volumes only in PATCH (the contract rule), runtimeType required, junk rejected', (t) => {
  const body = {
    name: 'a',
    runtimeType: 'shared',
    autoScaling: { min: 1, max: 1 },
    regionSettings: {},
    volumes: [{ name: 'v', size: 1 }],
  };
  t.deepEqual(validateRequest('mc', 'POST', '/mc/apps', body), []);
  const withId = { ...body, volumes: [{ id: 'v1', name: 'v', size: 1 }] };
  t.notDeepEqual(validateRequest('mc', 'POST', '/mc/apps', withId), [], 'no id on create');
  t.notDeepEqual(validateRequest('mc', 'PUT', '/mc/apps/{appId}', withId), [], 'no id on PUT');
  t.deepEqual(validateRequest('mc', 'PATCH', '/mc/apps/{appId}', { volumes: withId.volumes }), []);
  const { runtimeType: _r, ...noRuntime } = body;
  t.notDeepEqual(validateRequest('mc', 'POST', '/mc/apps', noRuntime), [], 'runtimeType required');
  t.notDeepEqual(validateRequest('mc', 'POST', '/mc/apps', { ...body, unknown: 1 }), []);
  t.notDeepEqual(
    validateRequest('core', 'POST', '/pullzone/{id}', { OptimizerImageQuality: 0 }),
    [],
  );
});

test('every contract exception states a reason; every schema patch its contract line or live evidence, and operations', (t) => {
  for (const e of CONTRACT_EXCEPTIONS) {
    t.true(e.reason.length > 20, JSON.stringify(e));
    if (e.kind !== 'schema-patch') continue;
    t.true((e.contract ?? e.liveEvidence ?? '').length > 20, e.schema);
    t.true(e.operations.length > 0, e.schema);
  }
});
