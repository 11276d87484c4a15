/**
 * Observe by pages end to end (issue 50, docs/scaling.md): a real operator sweeping cdn-sim's
 * pull zone listing every 5 s answers the drift checks of a zone polled every 5 s without a
 * read by id, corrects drift made behind its back within a sweep, and sees a zone deleted
 * behind its back as gone (this object made it, so it makes it again) instead of serving it
 * from an older sweep.
 */
import test from 'ava';
import { waitFor } from '../support/kube.js';
import { startOperatorEnv, type OperatorEnv } from '../support/operator-env.js';
import { API_KEY, pzcYaml, waitCondition } from './setup.js';
import { apply } from '../support/kube.js';

let env: OperatorEnv;

test.before(async () => {
  env = await startOperatorEnv('e2e-pages', API_KEY, {
    args: ['--sweep-read-share', '1', '--sweep-interval', '5s'],
  });
});

test.after.always(async () => {
  await env?.stop();
});

const FAST_POLL = { 'cdn.operator.io/poll-interval': '5s' };

/** GETs of one path (exactly) cdn-sim logged after `since`. */
function gets(path: string, since: number): number {
  return env.sim.calls
    .snapshot()
    .log.filter((c) => c.method === 'GET' && c.path === path && c.t >= since).length;
}

const settle = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

test.serial(
  'drift checks read sweeps, not the zone; drift is corrected; a deleted zone is gone',
  async (t) => {
    await apply(pzcYaml(env.ns, 'swept', { settings: { optimizerImageQuality: 80 } }, FAST_POLL));
    const ready = await waitCondition(env.ns, 'swept', 'Ready', 'True');
    const id = Number(ready.status?.pullZoneId);
    // Two sweeps after the create, so that the cache holds a record newer than the write.
    await settle(11_000);
    const from = Date.now();
    await settle(16_000);
    t.log(
      `in 16 s: ${gets(`/pullzone/${id}`, from)} reads by id, ${gets('/pullzone', from)} pages`,
    );
    t.true(gets('/pullzone', from) >= 2, 'the listing was swept');
    t.true(
      gets(`/pullzone/${id}`, from) <= 1,
      'the polls (every 5 s) were answered by the sweeps, not by reads of the zone',
    );

    const record = env.sim.state.pullZones.get(id)!.record;
    record.OptimizerImageQuality = 33;
    await waitFor(() => record.OptimizerImageQuality === 80, 30_000, 'drift corrected');

    env.sim.state.pullZones.delete(id);
    await waitFor(
      async () => {
        const obj = await waitCondition(env.ns, 'swept', 'Ready', 'True');
        return Number(obj.status?.pullZoneId) !== id;
      },
      40_000,
      'the deleted zone seen as gone and made again',
    );
    t.false(env.sim.state.pullZones.has(id), 'never served from an older sweep');
  },
);
