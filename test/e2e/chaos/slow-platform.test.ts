/**
 * Short fault-injection suite, slow-platform group (bench/chaos/slow-platform-group.ts): every
 * create of every kind answered after the operator's client timeout and late in listings;
 * each object ends with exactly one platform resource, recorded in its status, and none is
 * left after deletion; then the secret leak scan. Runs on its own private control plane.
 */
import { runSlowPlatformGroup } from '../../../bench/chaos/slow-platform-group.js';
import { testGroup } from './group-tests.js';

const scenarios = [
  {
    prefix: '8.',
    why: 'a slow platform neither duplicates, leaks nor loses a resource of any kind',
  },
  { prefix: '7.', why: 'the API key and Secret values never appear in logs, events or objects' },
];

testGroup(runSlowPlatformGroup, scenarios);
