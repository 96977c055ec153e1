import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { readJsonFile, writeFileAtomic } from '../util/fs';

/**
 * The repository files each test-side module imports, kept in the output folder between runs, so
 * that a warm run follows its test side's imports (the suite key's closure, see suite-key.ts)
 * without TypeScript: loading the compiler and parsing every file costs about a second, hashing
 * their bytes milliseconds. An entry holds while what decided it holds, and is checked on every
 * use:
 *
 * - the module's bytes;
 * - the listings of the folders its imports were looked up in (a file added there may take the
 *   place of the one an import found, or give an import that found none a file);
 * - the nearest tsconfig.json and package.json above it (`paths`, `baseUrl`, `imports`), and that
 *   no nearer one appeared.
 *
 * Anything else, the module is parsed again. An import that resolves to no file of the repository
 * (a package, a path no folder above holds) leaves no file in the closure either way.
 */

/** Bumped when what the parse finds changes: an entry of another format is parsed again. */
const FORMAT = 1;

interface Entry {
  /** SHA-256 of the module's bytes. */
  hash: string;
  imports: string[];
  /** Folder or config file → the digest of its listing or bytes ('' when there is none). */
  stamps: Record<string, string>;
}

interface Stored {
  format: number;
  entries: Record<string, Entry>;
}

/** The config files whose nearest copy above a module decides how its imports resolve. */
const RESOLUTION_CONFIGS = ['tsconfig.json', 'package.json'];

const sha256 = (data: string | Buffer) => crypto.createHash('sha256').update(data).digest('hex');

export class ImportCache {
  private readonly entries: Record<string, Entry>;
  /** The entries this run used or made: the only ones saved, so a removed file's entry goes. */
  private readonly kept: Record<string, Entry> = {};
  private changed = false;
  private readonly stampMemo = new Map<string, string>();

  constructor(private readonly file: string) {
    const stored = readJsonFile<Stored>(file);
    this.entries = stored?.format === FORMAT && stored.entries && typeof stored.entries === 'object' ? stored.entries : {};
  }

  /** The files a module imports as last parsed, when its bytes and everything its imports were resolved with are the same; else null. */
  imports(module: string, bytes: Buffer): string[] | null {
    const entry = this.entries[module];
    if (!entry || entry.hash !== sha256(bytes) || !Array.isArray(entry.imports)) return null;
    if (Object.entries(entry.stamps ?? {}).some(([where, stamp]) => this.stamp(where) !== stamp)) return null;
    this.kept[module] = entry;
    return entry.imports;
  }

  /** What a parse found: the module's imported files and the folders they were looked up in. */
  remember(module: string, bytes: Buffer, imports: string[], folders: readonly string[]): void {
    const stamps: Record<string, string> = {};
    for (const folder of new Set(folders)) stamps[folder] = this.stamp(folder);
    for (const config of configsAbove(path.dirname(module))) stamps[config] = this.stamp(config);
    this.kept[module] = { hash: sha256(bytes), imports, stamps };
    this.changed = true;
  }

  /** Writes the entries this run used, when any is new or one went; a cache that cannot be written is only slower next time. */
  save(): void {
    if (!this.changed && Object.keys(this.kept).length === Object.keys(this.entries).length) return;
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      writeFileAtomic(this.file, JSON.stringify({ format: FORMAT, entries: this.kept } satisfies Stored));
      this.changed = false;
    } catch {
      // The next run parses again.
    }
  }

  /** A folder's listing, or a file's bytes, as one digest; '' when there is neither. */
  private stamp(where: string): string {
    let stamp = this.stampMemo.get(where);
    if (stamp === undefined) {
      stamp = digestOf(where);
      this.stampMemo.set(where, stamp);
    }
    return stamp;
  }
}

function digestOf(where: string): string {
  try {
    const stat = fs.statSync(where);
    return stat.isDirectory() ? sha256(`dir\0${fs.readdirSync(where).sort().join('\0')}`) : sha256(fs.readFileSync(where));
  } catch {
    return '';
  }
}

/**
 * Each resolution config's path in every folder from `dir` up to the nearest one that has it: a
 * copy added nearer than the one found is a stamp that changed.
 */
function configsAbove(dir: string): string[] {
  const found: string[] = [];
  for (const name of RESOLUTION_CONFIGS) {
    for (let folder = dir; ; folder = path.dirname(folder)) {
      const candidate = path.join(folder, name);
      found.push(candidate);
      if (fs.existsSync(candidate) || path.dirname(folder) === folder) break;
    }
  }
  return found;
}
