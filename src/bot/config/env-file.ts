// Reads `.env` from the working directory into process.env when it exists; variables already set win.
import { existsSync } from 'node:fs';

export function loadEnvFile(path = '.env'): void {
  if (existsSync(path)) process.loadEnvFile(path);
}
