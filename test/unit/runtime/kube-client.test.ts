/** The metrics resource label kube-client.ts derives from an API path. */
import test from 'ava';
import { resourceOf } from '../../../src/runtime/kube-client.js';

test('metrics resource label of API paths', (t) => {
  t.is(
    resourceOf('/apis/pullzones.cdn.operator.io/v1beta1/namespaces/ns/pullzoneconfigs/a/status'),
    'pullzoneconfigs/status',
  );
  t.is(resourceOf('/api/v1/namespaces/ns/secrets'), 'secrets');
  t.is(resourceOf('/apis/cdn.operator.io/v1alpha1/widgets'), 'widgets');
});
