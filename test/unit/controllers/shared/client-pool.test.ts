/**
 * The shared client pool forgets clients of keys unused for an hour (rotated keys, deleted
 * accounts): one entry per key ever seen would otherwise stay for the life of the process.
 */
import test from 'ava';
import pino from 'pino';
import {
  CLIENT_IDLE_MS,
  cdnClientCount,
  getCdnClient,
  resetCdnClients,
} from '../../../../src/controllers/shared/client-pool.js';
import type { ControllerDeps } from '../../../../src/controllers/shared/deps.js';

const deps = {
  apiBaseUrl: 'http://127.0.0.1:9',
  log: pino({ level: 'silent' }),
} as unknown as ControllerDeps;

test.serial('one client per key, shared while in use', (t) => {
  resetCdnClients();
  const t0 = 1_000_000;
  const a = getCdnClient(deps, 'key-a', t0);
  t.is(getCdnClient(deps, 'key-a', t0 + 1000), a);
  t.is(cdnClientCount(), 1);
});

test.serial('a rotated key leaves no client behind after the idle time', (t) => {
  resetCdnClients();
  const t0 = 1_000_000;
  for (let i = 0; i < 50; i++) getCdnClient(deps, `rotated-key-${i}`, t0 + i);
  t.is(cdnClientCount(), 50);
  const kept = getCdnClient(deps, 'current-key', t0 + CLIENT_IDLE_MS / 2);
  // An hour later only the key still in use is cached.
  t.is(getCdnClient(deps, 'current-key', t0 + CLIENT_IDLE_MS + 120_000), kept);
  t.is(cdnClientCount(), 1);
});
