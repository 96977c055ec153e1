import { lazy } from '../util/lazy';

/** Read only for a pnpm lockfile that changed. */
const yaml = lazy(() => require('yaml') as typeof import('yaml'));

/**
 * Whether the current lockfile installs everything the base's does, at the same versions in the
 * same places: then the current node_modules serves the base app too, and the base worktree needs
 * no install. Adopting a tool (visual-uat itself) adds packages and changes the lockfile on the
 * branch; without this check every run there paid for a full install of the base.
 *
 * npm (lockfileVersion 2 and 3): every `packages` entry of the base, keyed by its install path,
 * is in the current lockfile with the same version and integrity. pnpm: every package and
 * snapshot of the base is in the current lockfile, and every importer's dependency resolves to the
 * same version. Other lockfiles (yarn, bun, npm's version 1) are never assumed to cover.
 */

interface NpmLock {
  lockfileVersion?: number;
  packages?: Record<string, { version?: string; integrity?: string; link?: boolean; resolved?: string }>;
}

function npmCovers(currentText: string, baseText: string): boolean {
  const current = JSON.parse(currentText) as NpmLock;
  const base = JSON.parse(baseText) as NpmLock;
  if (!current.packages || !base.packages) return false;
  return Object.entries(base.packages).every(([where, entry]) => {
    if (where === '') return true;
    const now = current.packages![where];
    return (
      !!now &&
      now.version === entry.version &&
      now.integrity === entry.integrity &&
      now.resolved === entry.resolved &&
      !!now.link === !!entry.link
    );
  });
}

type PnpmDeps = Record<string, { version?: string } | string>;
interface PnpmLock {
  importers?: Record<string, Record<string, PnpmDeps | undefined>>;
  packages?: Record<string, unknown>;
  snapshots?: Record<string, unknown>;
}

const PNPM_DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies'];

function pnpmVersion(entry: { version?: string } | string | undefined): string | undefined {
  return typeof entry === 'string' ? entry : entry?.version;
}

function pnpmCovers(currentText: string, baseText: string): boolean {
  const current = yaml().parse(currentText) as PnpmLock;
  const base = yaml().parse(baseText) as PnpmLock;
  for (const section of ['packages', 'snapshots'] as const)
    if (Object.keys(base[section] ?? {}).some((key) => !(key in (current[section] ?? {})))) return false;
  return Object.entries(base.importers ?? {}).every(([importer, fields]) =>
    PNPM_DEPENDENCY_FIELDS.every((field) =>
      Object.entries(fields[field] ?? {}).every(
        ([name, entry]) => pnpmVersion(entry) === pnpmVersion(current.importers?.[importer]?.[field]?.[name]),
      ),
    ),
  );
}

export function lockfileCovers(lockfile: string, currentText: string, baseText: string): boolean {
  try {
    if (lockfile === 'package-lock.json' || lockfile === 'npm-shrinkwrap.json') return npmCovers(currentText, baseText);
    if (lockfile === 'pnpm-lock.yaml') return pnpmCovers(currentText, baseText);
  } catch {
    // A lockfile that does not parse is not trusted to cover anything: the base gets its install.
  }
  return false;
}
