/** `cdnctl shield ...`: shield zones and WAF rule metrics. */
import type { ShieldZoneCreate, ShieldZoneUpdate } from '../../cdn/types.js';
import { readBodyFile } from '../input.js';
import { col, type Column } from '../output.js';
import { parseId, parseOptionalInt } from '../usage-error.js';
import type { Command } from './types.js';

const zoneColumns: Column[] = [
  col('SHIELD ZONE', 'shieldZoneId'),
  col('PULL ZONE', 'pullZoneId'),
  col('WAF', 'wafEnabled'),
  col('LEARNING', 'learningMode'),
  col('PLAN', 'planType'),
];

export const shieldCommands: Command[] = [
  {
    group: 'shield',
    verb: 'get',
    args: ['PULLZONE'],
    summary: 'Show the shield zone of a pull zone',
    run: async ({ client, args }) => {
      const pullZoneId = parseId('PULLZONE', args[0]);
      const zone = await client.getShieldZoneByPullZone(pullZoneId);
      if (!zone) throw new NoShieldZone(pullZoneId);
      return { value: zone };
    },
  },
  {
    group: 'shield',
    verb: 'list',
    args: [],
    summary: 'List shield zones (all pages, or one with --page/--per-page)',
    run: async ({ client, flags }) => {
      if (flags.page === undefined && flags.perPage === undefined) {
        return { value: await client.listAllShieldZones(), columns: zoneColumns };
      }
      const page = await client.listShieldZones({
        page: parseOptionalInt('page', flags.page),
        perPage: parseOptionalInt('per-page', flags.perPage),
      });
      return { value: page, rows: page.data, columns: zoneColumns };
    },
  },
  {
    group: 'shield',
    verb: 'waf-metrics',
    args: ['ZONE', 'RULE'],
    summary: 'Show trigger metrics of one WAF rule in a shield zone',
    run: async ({ client, args }) => {
      const metrics = await client.getWafRuleMetrics(parseId('ZONE', args[0]), args[1]!);
      return {
        value: metrics,
        columns: [
          col('TRIGGERS', 'totalTriggers'),
          col('BLOCKED', 'blockedRequests'),
          col('LOGGED', 'loggedRequests'),
          col('CHALLENGED', 'challengedRequests'),
        ],
      };
    },
  },
  {
    group: 'shield',
    verb: 'create',
    args: [],
    summary: 'Create a shield zone from -f FILE ({pullZoneId, shieldZone: {...}})',
    run: async ({ client, flags }) => ({
      value: await client.createShieldZone(readBodyFile(flags.file) as ShieldZoneCreate),
      columns: zoneColumns,
    }),
  },
  {
    group: 'shield',
    verb: 'update',
    args: [],
    summary: 'Update a shield zone from -f FILE ({shieldZoneId, shieldZone: {...}})',
    run: async ({ client, flags }) => ({
      value: await client.updateShieldZone(readBodyFile(flags.file) as ShieldZoneUpdate),
      columns: zoneColumns,
    }),
  },
];

/** `shield get` on a pull zone without a shield zone: reported like a 404 (exit code 4). */
export class NoShieldZone extends Error {
  constructor(readonly pullZoneId: number) {
    super(`pull zone ${pullZoneId} has no shield zone`);
    this.name = 'NoShieldZone';
  }
}
