import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Packages the page loads straight from node_modules (no bundler): the Discord web components and the lit
// runtime they import by bare name (mapped by the page's import map), and the Twemoji images.
export const VENDOR_PACKAGES = [
  '@skyra/discord-components-core',
  'lit',
  'lit-html',
  'lit-element',
  '@lit/reactive-element',
  '@lit/context',
  '@twemoji/svg',
] as const;

export const PUBLIC_DIR = join(dirname(fileURLToPath(import.meta.url)), 'public');

/** Finds a package's folder by walking up from this file, as Node's resolver would. */
export function packageDir(name: string, from = dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (;;) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`Cannot find the package ${name}: run npm install in the project folder.`);
    dir = parent;
  }
}

/** Maps `/vendor/<package>/<file>` to a file of one of the allowed packages. */
export function vendorRoute(pathname: string): { root: string; rest: string } | undefined {
  for (const name of VENDOR_PACKAGES) {
    const prefix = `/vendor/${name}/`;
    if (pathname.startsWith(prefix)) return { root: packageDir(name), rest: pathname.slice(prefix.length) };
  }
  return undefined;
}
