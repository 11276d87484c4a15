/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are read loosely here; call() has already validated each against the official schema */
/**
 * MaxWebSocketConnections as the document describes it in prose: a value between tiers is
 * rounded up to the next tier, a value over 25,000 is refused.
 */
import test from 'ava';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import { call, createPullZone, startTestSim } from '../../support/sim-client.js';

let sim: SimulatorHandle;
test.before(async () => {
  sim = await startTestSim();
});
test.after.always(async () => {
  await sim.close();
});

const cases: { sent: number; kept: number; reason: string }[] = [
  { sent: 300, kept: 500, reason: 'below the first tier' },
  { sent: 2500, kept: 2500, reason: 'a tier' },
  { sent: 2501, kept: 5000, reason: 'just above a tier' },
  { sent: 0, kept: 0, reason: 'zero' },
];

for (const c of cases) {
  test(`MaxWebSocketConnections ${c.sent} is kept as ${c.kept} (${c.reason})`, async (t) => {
    const id = await createPullZone(t, sim, `ws-${c.sent}`);
    const res = await call(t, sim, {
      area: 'core',
      method: 'POST',
      template: '/pullzone/{id}',
      params: { id },
      body: { MaxWebSocketConnections: c.sent },
    });
    t.is(res.status, 200);
    t.is((res.body as any).MaxWebSocketConnections, c.kept);
  });
}

test('MaxWebSocketConnections over 25,000 is refused with ApiErrorData', async (t) => {
  const id = await createPullZone(t, sim, 'ws-over');
  const res = await call(t, sim, {
    area: 'core',
    method: 'POST',
    template: '/pullzone/{id}',
    params: { id },
    body: { MaxWebSocketConnections: 25001 },
  });
  t.is(res.status, 400);
  t.like(res.body, { ErrorKey: 'validation.out_of_range', Field: 'MaxWebSocketConnections' });
});
