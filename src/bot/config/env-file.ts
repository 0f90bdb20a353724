// Reads `.env` from the working directory into process.env when it exists; variables already set win. Then each
// secret given as a file (`DISCORD_TOKEN_FILE=/run/secrets/…`, as container engines mount secrets) is read into its
// variable, so the value never has to sit in the process's configured environment.
import { existsSync, readFileSync } from 'node:fs';
import { ConfigError } from './config.js';

/** The variables that may be given as `<NAME>_FILE`: the credentials. */
export const SECRET_FILE_VARIABLES = ['DISCORD_TOKEN', 'GATEWAY_API_KEY', 'METRICS_TOKEN', 'STORE_URL'] as const;

export function loadEnvFile(path = '.env'): void {
  if (existsSync(path)) process.loadEnvFile(path);
  readSecretFiles(process.env);
}

/** Sets NAME from the file NAME_FILE names (one trailing newline dropped); both set is a mistake worth stopping for. */
export function readSecretFiles(env: Record<string, string | undefined>): void {
  for (const name of SECRET_FILE_VARIABLES) {
    const file = env[`${name}_FILE`]?.trim();
    if (!file) continue;
    if (env[name]?.trim()) {
      throw new ConfigError(`Invalid configuration:\n- set ${name} or ${name}_FILE, not both`);
    }
    let value: string;
    try {
      value = readFileSync(file, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
      throw new ConfigError(`Invalid configuration:\n- ${name}_FILE names ${file}, which cannot be read (${code})`);
    }
    env[name] = value.replace(/\r?\n$/, '');
  }
}
