type Json = Record<string, unknown>;

export type RegisteredCommand = Json & { id: string; name: string; type: number; guild_id?: string };

/** Registered application commands, global (scope null) and per guild; ids survive re-registration by name. */
export class CommandRegistry {
  readonly #scopes = new Map<string | null, RegisteredCommand[]>();

  constructor(
    private readonly applicationId: string,
    private readonly nextId: () => string,
  ) {}

  list(guildId: string | null): RegisteredCommand[] {
    return structuredClone(this.#scopes.get(guildId) ?? []);
  }

  /** Bulk overwrite, as PUT does: commands absent from the body are removed. */
  overwrite(guildId: string | null, bodies: Json[]): RegisteredCommand[] {
    const before = this.#scopes.get(guildId) ?? [];
    const next = bodies.map((body) => this.#materialise(guildId, body, before));
    this.#scopes.set(guildId, next);
    return structuredClone(next);
  }

  upsert(guildId: string | null, body: Json): RegisteredCommand {
    const before = this.#scopes.get(guildId) ?? [];
    const cmd = this.#materialise(guildId, body, before);
    this.#scopes.set(guildId, [...before.filter((c) => c.id !== cmd.id), cmd]);
    return structuredClone(cmd);
  }

  remove(guildId: string | null, id: string): boolean {
    const before = this.#scopes.get(guildId) ?? [];
    const after = before.filter((c) => c.id !== id);
    this.#scopes.set(guildId, after);
    return after.length !== before.length;
  }

  /** The command a user would see in a guild: guild commands shadow global ones of the same name. */
  find(guildId: string, name: string, type = 1): RegisteredCommand | undefined {
    const match = (c: RegisteredCommand) => c.name === name && c.type === type;
    return (this.#scopes.get(guildId) ?? []).find(match) ?? (this.#scopes.get(null) ?? []).find(match);
  }

  #materialise(guildId: string | null, body: Json, before: RegisteredCommand[]): RegisteredCommand {
    const type = typeof body.type === 'number' ? body.type : 1;
    const previous = before.find((c) => c.name === body.name && c.type === type);
    return {
      ...body,
      id: previous?.id ?? this.nextId(),
      application_id: this.applicationId,
      version: this.nextId(),
      type,
      name: String(body.name),
      name_localizations: body.name_localizations ?? null,
      description: typeof body.description === 'string' ? body.description : '',
      description_localizations: body.description_localizations ?? null,
      default_member_permissions: body.default_member_permissions ?? null,
      dm_permission: body.dm_permission ?? true,
      contexts: body.contexts ?? null,
      integration_types: body.integration_types ?? [0],
      nsfw: body.nsfw ?? false,
      ...(Array.isArray(body.options) ? { options: body.options } : {}),
      ...(guildId ? { guild_id: guildId } : {}),
    };
  }
}
