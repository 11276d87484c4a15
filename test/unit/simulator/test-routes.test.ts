/**
 * `SimulatorOptions.testRoutes`: a test installs routes no official document describes (the
 * test's Gadget, test/support/sim-gadgets.ts). They run through the request pipeline (AccessKey,
 * faults, call log) but not the document gate; the simulator without them has no such path.
 * `CdnClient.request` reaches them through the same transport and error model as every method.
 */
import test from 'ava';
import { pino } from 'pino';
import { CdnClient } from '../../../src/cdn/client.js';
import { isCdnApiError } from '../../../src/cdn/errors.js';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import { startTestSim, TEST_KEY } from '../../support/sim-client.js';
import { gadgetRoutes } from '../../support/sim-gadgets.js';

const silent = pino({ level: 'silent' });

async function withSim(
  run: (sim: SimulatorHandle, client: CdnClient) => Promise<void>,
  installed = true,
): Promise<void> {
  const sim = await startTestSim({
    logger: silent,
    storage: false,
    ...(installed ? { testRoutes: gadgetRoutes() } : {}),
  });
  const client = new CdnClient({
    baseUrl: sim.url,
    credentials: TEST_KEY,
    retry: { maxAttempts: 1 },
  });
  try {
    await run(sim, client);
  } finally {
    client.close();
    await sim.close();
  }
}

const create = { operation: 'createGadget', method: 'POST', path: '/gadgets' } as const;

test('an installed route answers through the pipeline, logged and never counted as rejected by the documents', (t) =>
  withSim(async (sim, client) => {
    const made = await client.request({ ...create, body: { name: 'a', size: 2 } });
    t.deepEqual(made, { id: 1, name: 'a', size: 2, serial: 'G-1' });
    const listed = await client.request({
      operation: 'listGadgets',
      method: 'GET',
      path: '/gadgets',
    });
    t.deepEqual(listed, { items: [made] });
    const { log, rejectedByDocument } = sim.calls.snapshot();
    t.deepEqual(
      log.map((c) => [c.method, c.route, c.status]),
      [
        ['POST', 'POST /gadgets', 201],
        ['GET', 'GET /gadgets', 200],
      ],
    );
    t.is(rejectedByDocument.count, 0);
  }));

test('an installed route needs the AccessKey like every route', (t) =>
  withSim(async (sim) => {
    const res = await fetch(`${sim.url}/gadgets`);
    t.is(res.status, 401);
  }));

test('faults apply to an installed route: a create committed whose answer is lost', (t) =>
  withSim(async (sim, client) => {
    sim.faults.set({ commitThenDropRate: 1, errorRoutes: ['POST /gadgets'] });
    await t.throwsAsync(client.request({ ...create, body: { name: 'lost', size: 1 } }));
    sim.faults.set({});
    const listed = await client.request({
      operation: 'listGadgets',
      method: 'GET',
      path: '/gadgets',
    });
    t.like(listed, { items: [{ name: 'lost' }] }, 'committed before the answer was dropped');
  }));

test('the platform refusals of an installed route reach the caller as CdnApiErrors', (t) =>
  withSim(async (_sim, client) => {
    const missing = await t.throwsAsync(
      client.request({ operation: 'getGadget', method: 'GET', path: '/gadgets/7' }),
    );
    t.true(isCdnApiError(missing) && missing.kind === 'notFound', String(missing));
    const readOnly = await t.throwsAsync(
      client.request({ ...create, body: { name: 'a', size: 1, serial: 'mine' } }),
    );
    t.true(isCdnApiError(readOnly) && readOnly.kind === 'invalid', String(readOnly));
    t.regex(readOnly.message, /serial/);
  }));

test('without testRoutes the simulator has no such path: its API is the documents only', (t) =>
  withSim(async (_sim, client) => {
    const err = await t.throwsAsync(client.request({ ...create, body: { name: 'a', size: 1 } }));
    t.true(isCdnApiError(err) && err.status === 404, String(err));
  }, false));
