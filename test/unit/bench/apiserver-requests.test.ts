import test from 'ava';
import {
  diffRequestCounts,
  perObjectText,
  requestCountsOf,
} from '../../../bench/lib/apiserver-requests.js';
import { parseProm } from '../../../bench/lib/prom.js';

const metrics = (create: number, status: number): string =>
  [
    '# TYPE apiserver_request_total counter',
    `apiserver_request_total{code="201",component="apiserver",dry_run="",group="cdn.operator.io",resource="pullzoneconfigs",scope="resource",subresource="",verb="POST",version="v1alpha1"} ${create}`,
    `apiserver_request_total{code="409",component="apiserver",dry_run="",group="cdn.operator.io",resource="pullzoneconfigs",scope="resource",subresource="",verb="POST",version="v1alpha1"} 1`,
    `apiserver_request_total{code="200",component="apiserver",dry_run="",group="cdn.operator.io",resource="pullzoneconfigs",scope="resource",subresource="status",verb="PATCH",version="v1alpha1"} ${status}`,
    'apiserver_request_total{code="200",component="apiserver",group="",resource="",scope="",subresource="/healthz",verb="GET",version=""} 9',
    'apiserver_request_duration_seconds_count{verb="POST",resource="pullzoneconfigs"} 7',
  ].join('\n');

test('counts by verb and resource, codes summed, subresources apart, non-resource paths left out', (t) => {
  t.deepEqual(requestCountsOf(parseProm(metrics(10, 4))), {
    'POST pullzoneconfigs': 11,
    'PATCH pullzoneconfigs/status': 4,
  });
});

test('a phase is the difference; per object text keeps what reaches the threshold, largest first', (t) => {
  const before = requestCountsOf(parseProm(metrics(10, 4)));
  const after = requestCountsOf(parseProm(metrics(110, 204)));
  const diff = diffRequestCounts(before, { ...after, 'PUT leases': 3 });
  t.deepEqual(diff, {
    'POST pullzoneconfigs': 100,
    'PATCH pullzoneconfigs/status': 200,
    'PUT leases': 3,
  });
  t.is(perObjectText(diff, 100), 'PATCH pullzoneconfigs/status 2.00, POST pullzoneconfigs 1.00');
});
