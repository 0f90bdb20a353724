// Rolling-window request limit on the sandbox clock (GET /v3/markets: 120 per minute per API key).

export class RollingLimit {
  private readonly hits = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  dump(): [string, number[]][] {
    return structuredClone([...this.hits]);
  }

  load(d: [string, number[]][]): void {
    this.hits.clear();
    for (const [k, v] of structuredClone(d)) this.hits.set(k, v);
  }

  /** Counts a request at `nowMs`; returns 0 when allowed, else the sandbox ms until a slot frees. */
  take(who: string, nowMs: number): number {
    const since = nowMs - this.windowMs;
    const list = (this.hits.get(who) ?? []).filter((t) => t > since);
    if (list.length >= this.limit) {
      this.hits.set(who, list);
      return (list[0] as number) + this.windowMs - nowMs;
    }
    list.push(nowMs);
    this.hits.set(who, list);
    return 0;
  }
}
