/**
 * Short fault-injection suite, faults group (bench/chaos/suite.ts): 429 Retry-After window,
 * 5xx storm during creates (all Ready, no duplicates, calls bounded), invalid manifests
 * (rejected naming the field or Synced=False; no platform call; no restart) and the secret
 * leak scan. Runs on its own private control plane; every assertion is count-based.
 */
import { runFaultsGroup } from '../../../bench/chaos/suite.js';
import { testGroup } from './group-tests.js';

const scenarios = [
  { prefix: '2.', why: 'a 429 pauses every request of the account for Retry-After' },
  {
    prefix: '1.',
    why: 'a 5xx storm neither loses nor duplicates creates, and backoff bounds the calls',
  },
  { prefix: '6.', why: 'invalid input is stopped before it costs a platform call or a crash' },
  { prefix: '7.', why: 'the API key and Secret values never appear in logs, events or objects' },
];

testGroup(runFaultsGroup, scenarios);
