// Pure counting for the poll-coalescing figure: how many bet_status requests one poll tick costs.

/**
 * Every tick polls each pending id once, so the number of ticks is the most times any id was polled;
 * requests per tick is the request count over that.
 */
export function requestsPerTick(requests: readonly (readonly string[])[]): { ticks: number; perTick: number } {
  const polled = new Map<string, number>();
  for (const ids of requests) for (const id of ids) polled.set(id, (polled.get(id) ?? 0) + 1);
  const ticks = Math.max(0, ...polled.values());
  return { ticks, perTick: ticks === 0 ? 0 : requests.length / ticks };
}
