/**
 * Short fault-injection suite, restarts group (bench/chaos/suite.ts): apiserver outage (no
 * missed spec change, at most one relist per informer), `kill -9` during creates with
 * commit-then-drop (exactly one platform resource per object), leader failover (standby
 * idle while the leader lives, writes never interleave) and the secret leak scan. Runs on
 * its own private control plane; every assertion is count-based.
 */
import { runRestartsGroup } from '../../../bench/chaos/suite.js';
import { testGroup } from './group-tests.js';

const scenarios = [
  { prefix: '4.', why: 'an apiserver outage loses no spec change and relists once' },
  { prefix: '3.', why: 'kill -9 during creates leaves exactly one platform resource per object' },
  { prefix: '5.', why: 'leader failover never has two replicas reconciling' },
  {
    prefix: '5b.',
    why: 'a leader frozen with SIGSTOP writes nothing to the platform after the new leader did',
  },
  { prefix: '7.', why: 'the API key and Secret values never appear in logs, events or objects' },
];

testGroup(runRestartsGroup, scenarios);
