/**
 * Pull zone setting rules the official document states in prose rather than in its schema,
 * applied by cdn-sim like the platform applies them.
 *
 * - `MaxWebSocketConnections`: "Allowed tiers: 500, 1,000, 2,500, 5,000, 10,000, 25,000. If you
 *   send a non-tier value, the value is rounded up to the next tier. Values over 25,000 are
 *   rejected." 0 (and the record's default) stays 0; a negative value is refused.
 */

/** The WebSocket connection tiers of the document. */
export const WEBSOCKET_TIERS = [500, 1000, 2500, 5000, 10000, 25000] as const;
const WEBSOCKET_MAX = 25000;

/** The problem of a value the prose rules refuse, or undefined. */
export function proseProblem(name: string, value: unknown): string | undefined {
  if (name !== 'MaxWebSocketConnections' || typeof value !== 'number') return undefined;
  if (value < 0) return `MaxWebSocketConnections must be 0 or more, got ${value}`;
  return value > WEBSOCKET_MAX
    ? `MaxWebSocketConnections above ${WEBSOCKET_MAX} is not accepted (contact sales), got ${value}`
    : undefined;
}

/** The value the platform keeps for an accepted setting (a WebSocket tier, rounded up). */
export function keptValue(name: string, value: unknown): unknown {
  if (name !== 'MaxWebSocketConnections' || typeof value !== 'number' || value <= 0) return value;
  return WEBSOCKET_TIERS.find((tier) => tier >= value) ?? value;
}
