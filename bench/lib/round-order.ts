/**
 * The order of the applies inside a round of the end-to-end scenario. Every apply leaves its
 * objects behind, so a later apply in a round meets a fuller apiserver and etcd than an earlier
 * one; rotating the order by one place each round gives every side every place once in as many
 * rounds as there are sides, instead of always the same head start.
 */
export function rotatedOrder<T>(sides: readonly T[], round: number): T[] {
  if (sides.length === 0) return [];
  const k = ((round % sides.length) + sides.length) % sides.length;
  return [...sides.slice(k), ...sides.slice(0, k)];
}
