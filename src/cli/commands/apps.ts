/** `cdnctl apps ...`: container applications under `/mc`. */
import type { AppRequest } from '../../cdn/types.js';
import { readBodyFile } from '../input.js';
import { col, type Column } from '../output.js';
import { done, type Command } from './types.js';

const appColumns: Column[] = [col('ID', 'id'), col('NAME', 'name'), col('STATUS', 'status')];

/**
 * The documents require `runtimeType` on create and replace; the contract's application model
 * has none, so a file written from the contract gets the shared runtime instead of a 400.
 */
export function withRuntimeType(body: unknown): AppRequest {
  const request = body as AppRequest;
  if (typeof body !== 'object' || body === null || request.runtimeType !== undefined)
    return request;
  return { ...request, runtimeType: 'shared' };
}

export const appCommands: Command[] = [
  {
    group: 'apps',
    verb: 'list',
    args: [],
    summary: 'List applications',
    run: async ({ client }) => ({ value: await client.listApps(), columns: appColumns }),
  },
  {
    group: 'apps',
    verb: 'get',
    args: ['APP'],
    summary: 'Show one application',
    run: async ({ client, args }) => ({ value: await client.getApp(args[0]!) }),
  },
  {
    group: 'apps',
    verb: 'create',
    args: [],
    summary: 'Create an application from -f FILE (runtimeType defaults to shared)',
    run: async ({ client, flags }) => ({
      value: await client.createApp(withRuntimeType(readBodyFile(flags.file))),
      columns: [col('ID', 'id')],
    }),
  },
  {
    group: 'apps',
    verb: 'replace',
    args: ['APP'],
    summary:
      'Replace every configuration field of an application from -f FILE (runtimeType defaults to shared)',
    run: async ({ client, args, flags }) => ({
      value: await client.replaceApp(args[0]!, withRuntimeType(readBodyFile(flags.file))),
      columns: [col('ID', 'id')],
    }),
  },
  {
    group: 'apps',
    verb: 'patch',
    args: ['APP'],
    summary: 'Partially update an application from -f FILE (merge-patch)',
    run: async ({ client, args, flags }) => ({
      value: await client.patchApp(args[0]!, readBodyFile(flags.file)),
      columns: [col('ID', 'id')],
    }),
  },
  {
    group: 'apps',
    verb: 'delete',
    args: ['APP'],
    summary: 'Delete an application',
    run: async ({ client, args }) => {
      await client.deleteApp(args[0]!);
      return done(`Deleted application ${args[0]!}`, { id: args[0] });
    },
  },
  {
    group: 'apps',
    verb: 'container',
    args: ['APP', 'CONTAINER'],
    summary: 'Show one container template of an application',
    run: async ({ client, args }) => ({ value: await client.getContainer(args[0]!, args[1]!) }),
  },
];
