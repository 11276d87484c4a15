import test from 'ava';
import { CdnApiError } from '../../../../src/cdn/errors.js';
import {
  metricsDue,
  metricsStatus,
  parseRuleMetrics,
  readRuleMetrics,
} from '../../../../src/controllers/shieldpolicy/metrics.js';

const DATA = {
  totalTriggers: 10,
  blockedRequests: 6,
  loggedRequests: 3,
  challengedRequests: 1,
  overviewPastTwentyEightDays: {},
};
const ENTRY = { ruleId: 'r1', totalTriggers: 10, blocked: 6, logged: 3, challenged: 1 };

const PARSE_CASES: Array<[string, unknown, object]> = [
  ['the data object the client returns', DATA, ENTRY],
  ['a whole envelope with data', { data: DATA }, ENTRY],
  [
    'an envelope whose error member reports failure',
    {
      error: {
        statusCode: 404,
        success: false,
        message: 'no such zone',
        errorKey: 'shield.zone_not_found',
      },
    },
    { ruleId: 'r1', error: 'no such zone (shield.zone_not_found)' },
  ],
  [
    'an error member with only a status code',
    { data: null, error: { statusCode: 500 } },
    { ruleId: 'r1', error: 'status 500' },
  ],
  [
    'an error member that reports success is ignored',
    { data: DATA, error: { statusCode: 200, success: true } },
    ENTRY,
  ],
  [
    'missing or invalid counters read as zero',
    { totalTriggers: -1, blockedRequests: 'x' },
    { ruleId: 'r1', totalTriggers: 0, blocked: 0, logged: 0, challenged: 0 },
  ],
  [
    'an envelope without data',
    { data: null },
    { ruleId: 'r1', error: 'the metrics answer carried no data' },
  ],
];

for (const [why, answer, expected] of PARSE_CASES) {
  test(`parseRuleMetrics: ${why}`, (t) => {
    t.deepEqual(parseRuleMetrics('r1', answer), expected);
  });
}

test('readRuleMetrics: a rejected rule gets an error entry, the others their counters', async (t) => {
  const read = await readRuleMetrics(
    (_zone, rule) => {
      if (rule === 'bad') {
        return Promise.reject(
          new CdnApiError({
            operation: 'getWafRuleMetrics',
            kind: 'notFound',
            message: 'cannot getWafRuleMetrics: unknown',
            detail: 'unknown rule',
            status: 404,
            errorKey: 'shield.rule_not_found',
          }),
        );
      }
      return Promise.resolve(DATA);
    },
    1,
    ['r1', 'bad'],
  );
  t.true(read.complete, 'a permanent rejection still completes the read');
  t.deepEqual(read.entries, [
    ENTRY,
    { ruleId: 'bad', error: 'unknown rule (shield.rule_not_found)' },
  ]);
});

test('readRuleMetrics: a transient failure keeps the previous entry and marks the read incomplete', async (t) => {
  const old = { ruleId: 'r2', totalTriggers: 1, blocked: 1, logged: 0, challenged: 0 };
  const read = await readRuleMetrics(
    (_zone, rule) =>
      rule === 'r2'
        ? Promise.reject(
            new CdnApiError({
              operation: 'getWafRuleMetrics',
              kind: 'server',
              message: 'boom',
              status: 503,
            }),
          )
        : Promise.resolve(DATA),
    1,
    ['r1', 'r2'],
    [old],
  );
  t.false(read.complete);
  t.deepEqual(read.entries, [ENTRY, old]);
});

const NOW = Date.parse('2030-01-01T12:00:00Z');
const TEN_MIN = 600_000;
const DUE_CASES: Array<[string, Parameters<typeof metricsDue>[0], boolean]> = [
  [
    'no rules wanted',
    { now: NOW, pollIntervalMs: TEN_MIN, wantedRuleIds: [], current: undefined },
    false,
  ],
  [
    'never read',
    { now: NOW, pollIntervalMs: TEN_MIN, wantedRuleIds: ['a'], current: undefined },
    true,
  ],
  [
    'read 1 minute ago (status time)',
    {
      now: NOW,
      pollIntervalMs: TEN_MIN,
      lastMetricsTime: '2030-01-01T11:59:00Z',
      wantedRuleIds: ['a'],
      current: [{ ruleId: 'a' }],
    },
    false,
  ],
  [
    'status time older than the interval',
    {
      now: NOW,
      pollIntervalMs: TEN_MIN,
      lastMetricsTime: '2030-01-01T11:00:00Z',
      wantedRuleIds: ['a'],
      current: [{ ruleId: 'a' }],
    },
    true,
  ],
  [
    'status time old but an unchanged read happened recently in this process',
    {
      now: NOW,
      pollIntervalMs: TEN_MIN,
      lastMetricsTime: '2030-01-01T11:00:00Z',
      lastReadAt: NOW - 60_000,
      wantedRuleIds: ['a'],
      current: [{ ruleId: 'a' }],
    },
    false,
  ],
  [
    'the wanted rule list changed',
    {
      now: NOW,
      pollIntervalMs: TEN_MIN,
      lastMetricsTime: '2030-01-01T11:59:00Z',
      wantedRuleIds: ['a', 'b'],
      current: [{ ruleId: 'a' }],
    },
    true,
  ],
];

for (const [why, clock, due] of DUE_CASES) {
  test(`metricsDue: ${why}`, (t) => {
    t.is(metricsDue(clock), due);
  });
}

test('metricsStatus: unchanged values keep the old time, so status does not change', (t) => {
  const current = [ENTRY];
  const out = metricsStatus([{ ...ENTRY }], current, '2030-01-01T11:00:00Z', new Date(NOW));
  t.deepEqual(out, { ruleMetrics: current, lastMetricsTime: '2030-01-01T11:00:00Z' });
});

test('metricsStatus: changed values move the time (second precision)', (t) => {
  const out = metricsStatus(
    [{ ...ENTRY, totalTriggers: 11 }],
    [ENTRY],
    '2030-01-01T11:00:00Z',
    new Date(NOW + 123),
  );
  t.is(out.lastMetricsTime, '2030-01-01T12:00:00Z');
  t.is(out.ruleMetrics[0]!.totalTriggers, 11);
});
