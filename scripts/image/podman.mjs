// What `npm run image`, `npm run test:image` and the bench share: the image names, podman run with this repo's
// containers.conf, and the base image built from Debian's packages (no registry is reachable here).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The desk's image, as `npm run image` tags it. */
export const IMAGE = process.env.DESK_IMAGE ?? 'localhost/syndicate-desk:latest';
/** `debootstrap --variant=minbase bookworm`, imported: the base of every image here. */
export const BASE = 'localhost/syndicate-desk-base:bookworm';
export const SUITE = 'bookworm';

/** podman's environment: this repo's containers.conf (runc, explicit ulimits) unless CONTAINERS_CONF is set. */
export function podmanEnv() {
  return {
    ...process.env,
    CONTAINERS_CONF: process.env.CONTAINERS_CONF ?? join(REPO, 'scripts/image/containers.conf'),
  };
}

/** Runs podman and returns its stdout; a failure throws with podman's own message. */
export function podman(args, opts = {}) {
  const r = spawnSync('podman', args, { env: podmanEnv(), encoding: 'utf8', maxBuffer: 1 << 28, ...opts });
  if (r.error) throw new Error(`podman ${args[0]}: ${r.error.message} (is podman installed? apt-get install podman)`);
  if (r.status !== 0) throw new Error(`podman ${args.join(' ')} exited ${r.status}: ${(r.stderr ?? '').trim()}`);
  return (r.stdout ?? '').trim();
}

/** Runs podman with its output shown (builds); rejects on a non-zero exit. */
export function podmanLoud(args, opts = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn('podman', args, { env: podmanEnv(), stdio: 'inherit', ...opts });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`podman ${args[0]} exited ${code}`))));
  });
}

export function imageExists(name) {
  return spawnSync('podman', ['image', 'exists', name], { env: podmanEnv() }).status === 0;
}

/** The Debian mirror this machine's apt uses (the first URIs of debian.sources), else Debian's CDN. */
function debianMirror() {
  try {
    const sources = readFileSync('/etc/apt/sources.list.d/debian.sources', 'utf8');
    const uri = sources.match(/^URIs:\s*(\S+)/m)?.[1];
    if (uri && !/security/.test(uri)) return uri;
  } catch {}
  return 'http://deb.debian.org/debian';
}

/**
 * The base image: Debian bookworm from debootstrap's minbase variant, apt's package lists and caches removed, imported
 * into podman's store. Built once per machine: later runs find it there (`--rebuild-base` makes it again).
 */
export function ensureBase({ rebuild = false, log = console.log } = {}) {
  if (!rebuild && imageExists(BASE)) return { built: false, seconds: 0 };
  const t0 = Date.now();
  const dir = mkdtempSync('/var/tmp/desk-base-');
  const rootfs = join(dir, 'rootfs');
  try {
    const mirror = debianMirror();
    log(`base: debootstrap --variant=minbase ${SUITE} from ${mirror} (about a minute)…`);
    execFileSync('debootstrap', ['--variant=minbase', SUITE, rootfs, mirror], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    importRootfs(rootfs);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const seconds = (Date.now() - t0) / 1000;
  log(`base: ${BASE} built in ${seconds.toFixed(0)} s`);
  return { built: true, seconds };
}

/** What Debian's slim images leave out: documentation, manuals and translations (copyright files stay). */
const SLIM = `path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
path-exclude /usr/share/lintian/*
`;

/**
 * Trims a debootstrap root the way Debian's slim images are trimmed (and tells dpkg to keep it so for packages
 * installed later), removes apt's package lists and caches (an image that installs more runs apt-get update itself),
 * and imports it as the base image.
 */
export function importRootfs(rootfs) {
  writeFileSync(join(rootfs, 'etc/dpkg/dpkg.cfg.d/slim'), SLIM);
  const trim = [
    `find '${rootfs}/usr/share/doc' -mindepth 1 -not -name copyright -not -type d -delete`,
    `find '${rootfs}/usr/share/doc' -mindepth 1 -type d -empty -delete`,
    `rm -rf '${rootfs}'/usr/share/man/* '${rootfs}'/usr/share/info/* '${rootfs}'/usr/share/lintian/*`,
    `find '${rootfs}/usr/share/locale' -mindepth 1 -maxdepth 1 -not -name locale.alias -exec rm -rf {} +`,
    `rm -rf '${rootfs}'/var/lib/apt/lists/* '${rootfs}'/var/cache/apt/*`,
  ];
  execFileSync('sh', ['-c', trim.join(' && ')]);
  const imported = spawnSync(
    'sh',
    ['-c', `tar -C '${rootfs}' -c . | podman import --quiet --change 'CMD ["/bin/bash"]' - '${BASE}'`],
    { env: podmanEnv(), stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (imported.status !== 0) throw new Error(`podman import exited ${imported.status}`);
}

/** An image's size in bytes as podman counts it (its layers, uncompressed). */
export function imageBytes(name) {
  return Number(podman(['image', 'inspect', '--format', '{{.Size}}', name]));
}
