// vitest globalSetup: one throwaway PostgreSQL cluster for the run; tests make their own databases on it.
import type { TestProject } from 'vitest/node';
import { startPgCluster } from './cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const cluster = await startPgCluster();
  project.provide('pgAdminUrl', cluster.adminUrl);
  // For code that reads the environment (the e2e harness in bot child processes).
  process.env.PG_ADMIN_URL = cluster.adminUrl;
  return () => cluster.stop();
}
