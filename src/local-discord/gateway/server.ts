import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import { GatewayCloseCodes, GatewayIntentBits, GatewayOpcodes } from 'discord-api-types/v10';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import type { World } from '../state/world.js';
import { guildCreatePayload, readyPayload } from './payloads.js';
import { ZlibStreamEncoder } from './zlib-stream.js';

const REPLAY_BUFFER = 500;
const RESUME_WINDOW_MS = 60_000;

interface Session {
  id: string;
  seq: number;
  intents: number;
  /** [shard_id, num_shards] from IDENTIFY; [0, 1] unsharded. */
  shard: [number, number];
  socket: Connection | null;
  /** When the socket went away (Date.now()); a session not resumed within RESUME_WINDOW_MS is gone. */
  droppedAt: number | null;
  /** Recent dispatches, replayed on RESUME. */
  buffer: { s: number; t: string; d: unknown }[];
}

interface Connection {
  ws: WebSocket;
  zlib: ZlibStreamEncoder | null;
  session: Session | null;
  heartbeatDeadline: NodeJS.Timeout | null;
}

/** Discord's rule: a guild belongs to shard (guild_id >> 22) % num_shards. */
export function shardOfGuild(guildId: string, count: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(count));
}

/** The guild an event is about: its guild_id; message events (shaped per session) are the fixture guild's. */
function guildOfEvent(data: unknown, fallbackGuild: string): string | null {
  if (data === null) return fallbackGuild;
  if (typeof data === 'object' && typeof (data as { guild_id?: unknown }).guild_id === 'string')
    return (data as { guild_id: string }).guild_id;
  return null;
}

export interface GatewayOptions {
  heartbeatIntervalMs: number;
}

/** The WebSocket half: HELLO, IDENTIFY → READY + GUILD_CREATE, heartbeats, RESUME, and dispatches. */
export class GatewayServer {
  readonly #wss: WebSocketServer;
  readonly #sessions = new Map<string, Session>();
  readonly #connections = new Set<Connection>();

  constructor(
    server: Server,
    private readonly world: World,
    private readonly token: () => string,
    private readonly options: GatewayOptions,
    private readonly gatewayUrl: () => string,
  ) {
    this.#wss = new WebSocketServer({ server, path: '/gateway' });
    this.#wss.on('connection', (ws, req) => this.#accept(ws, req));
  }

  /**
   * Sends an event to every identified session (buffered for a resuming one) whose intents ask for it, with
   * `shape` adjusting the data per session; returns how many sessions got it.
   */
  dispatch(event: string, data: unknown, opts: { intent?: number; shape?: (intents: number) => unknown } = {}): number {
    let reached = 0;
    this.#expireSessions();
    // Sharded bots get a guild's events on the shard that owns the guild, DMs and the rest on shard 0.
    const guildId = guildOfEvent(data, this.world.guildId);
    for (const session of this.#sessions.values()) {
      if (opts.intent !== undefined && (session.intents & opts.intent) === 0) continue;
      if (!this.#owns(session, guildId)) continue;
      this.#dispatchTo(session, event, opts.shape ? opts.shape(session.intents) : data);
      reached++;
    }
    return reached;
  }

  #owns(session: Session, guildId: string | null): boolean {
    const [id, count] = session.shard;
    return guildId === null ? id === 0 : shardOfGuild(guildId, count) === id;
  }

  /** [id, count] of every session with an open socket, by shard id. */
  connectedShards(): Array<[number, number]> {
    return [...this.#sessions.values()]
      .filter((s) => s.socket !== null)
      .map((s) => s.shard)
      .sort((a, b) => a[0] - b[0]);
  }

  /** Number of sessions with an open socket: tests wait for the bot to be connected. */
  get connectedSessions(): number {
    return [...this.#sessions.values()].filter((s) => s.socket !== null).length;
  }

  /** Closes every bot socket as a network blip would; sessions stay resumable. */
  dropConnections(code: number): void {
    for (const c of this.#connections) c.ws.close(code, 'Connection dropped by the local Discord');
  }

  async close(): Promise<void> {
    for (const c of this.#connections) {
      if (c.heartbeatDeadline) clearTimeout(c.heartbeatDeadline);
      c.zlib?.close();
      c.ws.terminate();
    }
    this.#connections.clear();
    this.#sessions.clear();
    await new Promise<void>((resolve) => this.#wss.close(() => resolve()));
  }

  #accept(ws: WebSocket, req: IncomingMessage): void {
    const query = new URL(req.url ?? '/', 'http://local').searchParams;
    const conn: Connection = { ws, zlib: null, session: null, heartbeatDeadline: null };
    this.#connections.add(conn);
    ws.on('close', (code) => this.#drop(conn, code));
    ws.on('error', () => this.#drop(conn));
    const version = query.get('v') ?? '10';
    if (version !== '10' && version !== '9') {
      ws.close(GatewayCloseCodes.InvalidAPIVersion, 'Invalid API version: the local Discord speaks v10');
      return;
    }
    if ((query.get('encoding') ?? 'json') !== 'json') {
      ws.close(GatewayCloseCodes.DecodeError, 'Only encoding=json is supported by the local Discord');
      return;
    }
    const compress = query.get('compress');
    if (compress === 'zlib-stream') conn.zlib = new ZlibStreamEncoder();
    else if (compress !== null) {
      ws.close(GatewayCloseCodes.DecodeError, `compress=${compress} is not supported; use zlib-stream or none`);
      return;
    }
    ws.on('message', (raw) => this.#receive(conn, raw));
    this.#send(conn, {
      op: GatewayOpcodes.Hello,
      d: { heartbeat_interval: this.options.heartbeatIntervalMs },
      s: null,
      t: null,
    });
    this.#armHeartbeatDeadline(conn);
  }

  #drop(conn: Connection, code?: number): void {
    if (conn.heartbeatDeadline) clearTimeout(conn.heartbeatDeadline);
    conn.zlib?.close();
    this.#connections.delete(conn);
    const session = conn.session;
    if (!session || session.socket !== conn) return;
    session.socket = null;
    session.droppedAt = Date.now();
    // A client closing with 1000/1001 ends its session, as on Discord; other closes leave it resumable.
    if (code === 1000 || code === 1001) this.#sessions.delete(session.id);
  }

  #expireSessions(): void {
    const now = Date.now();
    for (const [id, s] of this.#sessions) {
      if (s.socket === null && s.droppedAt !== null && now - s.droppedAt > RESUME_WINDOW_MS) this.#sessions.delete(id);
    }
  }

  /** Discord closes a connection that misses heartbeats; allow a generous margin over the interval. */
  #armHeartbeatDeadline(conn: Connection): void {
    if (conn.heartbeatDeadline) clearTimeout(conn.heartbeatDeadline);
    conn.heartbeatDeadline = setTimeout(
      () => conn.ws.close(GatewayCloseCodes.SessionTimedOut, 'Session timed out: no heartbeat'),
      this.options.heartbeatIntervalMs * 2.5,
    );
    conn.heartbeatDeadline.unref();
  }

  #receive(conn: Connection, raw: RawData): void {
    let payload: { op?: unknown; d?: unknown };
    try {
      payload = JSON.parse(raw.toString()) as { op?: unknown; d?: unknown };
    } catch {
      conn.ws.close(GatewayCloseCodes.DecodeError, 'Decode error: send JSON text frames');
      return;
    }
    const d = (payload.d ?? {}) as Record<string, unknown>;
    switch (payload.op) {
      case GatewayOpcodes.Heartbeat:
        this.#armHeartbeatDeadline(conn);
        this.#send(conn, { op: GatewayOpcodes.HeartbeatAck, d: null, s: null, t: null });
        return;
      case GatewayOpcodes.Identify:
        this.#identify(conn, d);
        return;
      case GatewayOpcodes.Resume:
        this.#resume(conn, d);
        return;
      case GatewayOpcodes.PresenceUpdate:
      case GatewayOpcodes.VoiceStateUpdate:
      case GatewayOpcodes.RequestGuildMembers:
        if (!conn.session) conn.ws.close(GatewayCloseCodes.NotAuthenticated, 'Not authenticated: IDENTIFY first');
        return;
      default:
        conn.ws.close(GatewayCloseCodes.UnknownOpcode, `Unknown opcode ${String(payload.op)}`);
    }
  }

  #identify(conn: Connection, d: Record<string, unknown>): void {
    if (conn.session) {
      conn.ws.close(GatewayCloseCodes.AlreadyAuthenticated, 'Already authenticated');
      return;
    }
    if (typeof d.token !== 'string' || d.token.replace(/^Bot /, '') !== this.token()) {
      conn.ws.close(GatewayCloseCodes.AuthenticationFailed, 'Authentication failed');
      return;
    }
    const shard = d.shard === undefined ? ([0, 1] as [number, number]) : d.shard;
    if (
      !Array.isArray(shard) ||
      shard.length !== 2 ||
      !shard.every((n) => Number.isInteger(n)) ||
      shard[1] < 1 ||
      shard[0] < 0 ||
      shard[0] >= shard[1]
    ) {
      conn.ws.close(
        GatewayCloseCodes.InvalidShard,
        'Invalid shard: send [shard_id, num_shards] with 0 <= shard_id < num_shards',
      );
      return;
    }
    const session: Session = {
      id: randomBytes(16).toString('hex'),
      seq: 0,
      intents: Number(d.intents ?? 0),
      shard: shard as [number, number],
      socket: conn,
      droppedAt: null,
      buffer: [],
    };
    conn.session = session;
    this.#sessions.set(session.id, session);
    const ownsGuild = this.#owns(session, this.world.guildId);
    this.#dispatchTo(
      session,
      'READY',
      readyPayload(this.world, session.id, this.gatewayUrl(), session.shard, ownsGuild),
    );
    if (ownsGuild && session.intents & GatewayIntentBits.Guilds)
      this.#dispatchTo(session, 'GUILD_CREATE', guildCreatePayload(this.world));
  }

  #resume(conn: Connection, d: Record<string, unknown>): void {
    this.#expireSessions();
    const session = typeof d.session_id === 'string' ? this.#sessions.get(d.session_id) : undefined;
    const tokenOk = typeof d.token === 'string' && d.token.replace(/^Bot /, '') === this.token();
    const seq = Number(d.seq ?? 0);
    const oldest = session?.buffer[0]?.s ?? 1;
    if (!session || !tokenOk || seq < oldest - 1) {
      // Not resumable: the client must IDENTIFY again.
      this.#send(conn, { op: GatewayOpcodes.InvalidSession, d: false, s: null, t: null });
      return;
    }
    if (session.socket && session.socket !== conn) session.socket.ws.close(4000, 'Session resumed elsewhere');
    session.socket = conn;
    session.droppedAt = null;
    conn.session = session;
    for (const missed of session.buffer.filter((p) => p.s > seq))
      this.#send(conn, { op: GatewayOpcodes.Dispatch, ...missed });
    this.#dispatchTo(session, 'RESUMED', {});
  }

  #dispatchTo(session: Session, event: string, data: unknown): void {
    session.seq += 1;
    const payload = { s: session.seq, t: event, d: data };
    session.buffer.push(payload);
    if (session.buffer.length > REPLAY_BUFFER) session.buffer.shift();
    if (session.socket) this.#send(session.socket, { op: GatewayOpcodes.Dispatch, ...payload });
  }

  #send(conn: Connection, payload: unknown): void {
    const text = JSON.stringify(payload);
    if (!conn.zlib) {
      if (conn.ws.readyState === WebSocket.OPEN) conn.ws.send(text);
      return;
    }
    void conn.zlib.encode(text).then((frame) => {
      if (conn.ws.readyState === WebSocket.OPEN) conn.ws.send(frame);
    });
  }
}
