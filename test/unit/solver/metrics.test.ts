/**
 * The solver's metric on the operator's registry: `cdn_operator_dns01_challenges_total` counts
 * each answered challenge by action and result, and exists only where the solver runs.
 */
import test from 'ava';
import { OperatorMetrics } from '../../../src/runtime/metrics.js';
import { SolverMetrics } from '../../../src/solver/metrics.js';

test('each challenge is counted once by action and result', async (t) => {
  const operator = new OperatorMetrics({ defaultMetrics: false });
  const m = new SolverMetrics(operator.registry);
  m.recordChallenge('Present', 'written');
  m.recordChallenge('Present', 'written');
  m.recordChallenge('Present', 'refused');
  m.recordChallenge('CleanUp', 'removed');
  const text = await operator.render();
  t.regex(text, /^# TYPE cdn_operator_dns01_challenges_total counter$/m);
  t.regex(text, /^cdn_operator_dns01_challenges_total\{action="Present",result="written"\} 2$/m);
  t.regex(text, /^cdn_operator_dns01_challenges_total\{action="Present",result="refused"\} 1$/m);
  t.regex(text, /^cdn_operator_dns01_challenges_total\{action="CleanUp",result="removed"\} 1$/m);
  t.notRegex(text, /action="CleanUp",result="written"/);
});

test('without the solver the operator has no such metric', async (t) => {
  const text = await new OperatorMetrics({ defaultMetrics: false }).render();
  t.notRegex(text, /dns01/);
});
