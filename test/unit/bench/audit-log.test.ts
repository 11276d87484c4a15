import test from 'ava';
import { appendFile, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditLog, auditPolicy } from '../../../bench/lib/audit.js';

function line(verb: string, name: string): string {
  return `${JSON.stringify({
    stage: 'ResponseComplete',
    verb,
    user: { username: 'op' },
    objectRef: { resource: 'pullzoneconfigs', namespace: 'a', name },
    responseStatus: { code: 200 },
    requestReceivedTimestamp: '2026-11-23T10:00:00.000000Z',
  })}\n`;
}

test('the audit policy never lets the apiserver rotate at its 100 MB default', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'audit-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const { args } = await auditPolicy(dir, ['op']);
  const size = args.find((a) => a.startsWith('--audit-log-maxsize='));
  t.truthy(size);
  // 0 is lumberjack's "use the default" (100 MB), not "never".
  t.true(Number(size?.split('=')[1]) >= 100_000);
});

const rotations: Array<{ title: string; rotate: (path: string) => Promise<void> }> = [
  {
    title: 'replaced by a new file',
    rotate: async (path) => {
      await rename(path, `${path}.1`);
      await writeFile(path, line('patch', 'c'));
    },
  },
  { title: 'truncated', rotate: (path) => writeFile(path, '') },
];

for (const { title, rotate } of rotations) {
  test(`a reader whose file was ${title} fails instead of counting nothing`, async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'audit-'));
    t.teardown(() => rm(dir, { recursive: true, force: true }));
    const path = join(dir, 'audit.log');
    await writeFile(path, line('patch', 'a') + line('create', 'b'));
    const log = new AuditLog(path);
    await log.refresh();
    t.is(log.count({ user: 'op' }), 2);
    await appendFile(path, line('patch', 'b'));
    await log.refresh();
    t.is(log.count({ verbs: ['patch'] }), 2);
    await rotate(path);
    await t.throwsAsync(() => log.refresh(), { message: /rotated or truncated/ });
  });
}
