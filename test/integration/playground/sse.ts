// Reads a Server-Sent Events stream over HTTP as the page's EventSource would.

export interface SseEvent {
  event: string;
  data: unknown;
}

export class SseReader {
  readonly events: SseEvent[] = [];
  readonly #controller = new AbortController();
  readonly #done: Promise<void>;

  constructor(url: string) {
    this.#done = this.#read(url).catch(() => {});
  }

  async #read(url: string) {
    const res = await fetch(url, { signal: this.#controller.signal });
    if (!res.body) throw new Error('no body');
    const decoder = new TextDecoder();
    let buffer = '';
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event && data) this.events.push({ event, data: JSON.parse(data) });
        end = buffer.indexOf('\n\n');
      }
    }
  }

  /** Polls until an event matches or the deadline passes. */
  async waitFor(predicate: (e: SseEvent) => boolean, timeoutMs = 5000): Promise<SseEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.events.find(predicate);
      if (hit) return hit;
      if (Date.now() > deadline) {
        throw new Error(
          `no matching event within ${timeoutMs} ms; got ${JSON.stringify(this.events.map((e) => e.event))}`,
        );
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  async close() {
    this.#controller.abort();
    await this.#done;
  }
}
