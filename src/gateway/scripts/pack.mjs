// `npm run pack:lib`: builds and packs the client library (prepack runs the build) into .pack/ at the repository
// root, then prints the tarball's absolute path as the last line, for scripts and the consumer test.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkgDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = resolve(pkgDir, '..', '..', '.pack');
mkdirSync(outDir, { recursive: true });
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const out = execFileSync(npm, ['pack', '--json', '--pack-destination', outDir], {
  cwd: pkgDir,
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
});
// npm prints the prepack build's output before the JSON array.
const json = JSON.parse(out.slice(out.indexOf('\n[') + 1 || out.indexOf('[')));
const file = json[0];
console.log(`${file.name}@${file.version}: ${file.entryCount} files, ${file.size} bytes packed`);
console.log(join(outDir, file.filename));
