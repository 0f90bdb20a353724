import type { ServerResponse } from 'node:http';
import type { DiscordMessageLike, PlaygroundDiscord } from './types.js';
import { isVisibleTo } from './visibility.js';

interface Viewer {
  userId: string;
  res: ServerResponse;
}

interface MessageEvent {
  channelId: string;
  message: DiscordMessageLike;
}

interface ModalEvent {
  interactionId: string;
  userId: string;
  modal: unknown;
}

/**
 * Fans the double's events out to every open page as Server-Sent Events, each viewer seeing only
 * what Discord would show them (ephemeral messages and modals go to their own user).
 */
export class LiveEvents {
  readonly #viewers = new Set<Viewer>();
  readonly #unsubscribe: Array<() => void> = [];
  readonly #heartbeat: NodeJS.Timeout;

  constructor(
    ld: PlaygroundDiscord,
    /** This start's id, in every `ready` event: a page that saw another one knows npm start was restarted. */
    private readonly runId = '',
  ) {
    const onCreate = (e: MessageEvent) => this.#onMessage('create', e);
    const onUpdate = (e: MessageEvent) => this.#onMessage('update', e);
    const onDelete = (e: MessageEvent) => this.#onMessage('delete', e);
    ld.events.on('messageCreate', onCreate);
    ld.events.on('messageUpdate', onUpdate);
    ld.events.on('messageDelete', onDelete);
    this.#unsubscribe.push(() => {
      ld.events.off('messageCreate', onCreate);
      ld.events.off('messageUpdate', onUpdate);
      ld.events.off('messageDelete', onDelete);
    });
    const onModal = (e: ModalEvent) => this.#send((v) => v.userId === e.userId, 'modal', e);
    ld.events.on('modal', onModal);
    this.#unsubscribe.push(() => ld.events.off('modal', onModal));
    // Proxies drop idle streams; a comment line every 15 s keeps them open.
    this.#heartbeat = setInterval(() => {
      for (const v of this.#viewers) v.res.write(': keep-alive\n\n');
    }, 15_000);
    this.#heartbeat.unref();
  }

  /** Takes over `res` as an event stream for `userId` until the page goes away. */
  attach(res: ServerResponse, userId: string): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    res.write('retry: 1000\n\n');
    const viewer = { userId, res };
    this.#viewers.add(viewer);
    res.on('close', () => this.#viewers.delete(viewer));
    this.#write(viewer, 'ready', { userId, runId: this.runId });
  }

  /** Tells one user something the page must show (an interaction that failed, for one). */
  notify(userId: string, event: string, data: unknown): void {
    this.#send((v) => v.userId === userId, event, data);
  }

  /** Tells every open page something (the sandbox clock moved, for one). */
  broadcast(event: string, data: unknown): void {
    this.#send(() => true, event, data);
  }

  get viewerCount(): number {
    return this.#viewers.size;
  }

  close(): void {
    clearInterval(this.#heartbeat);
    for (const off of this.#unsubscribe) off();
    for (const v of this.#viewers) v.res.end();
    this.#viewers.clear();
  }

  #onMessage(kind: string, e: MessageEvent): void {
    this.#send((v) => isVisibleTo(e.message, v.userId), 'message', {
      kind,
      channelId: e.channelId,
      message: e.message,
    });
  }

  #send(to: (v: Viewer) => boolean, event: string, data: unknown): void {
    for (const v of this.#viewers) if (to(v)) this.#write(v, event, data);
  }

  #write(v: Viewer, event: string, data: unknown): void {
    v.res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }
}
