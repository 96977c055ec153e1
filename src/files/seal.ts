import fs from 'node:fs';
import path from 'node:path';
import { sha256File } from '../util/hash';

/**
 * What a baseline entry's seal vouches for: every file of the entry, by its path inside the entry
 * (`/`-separated) → SHA-256 of its bytes. Images, signals (the ARIA snapshot among them), layout
 * records and manifests are all served from an entry, so all are sealed: a truncated signals file
 * read as "no console errors" would turn a regression into "unchanged".
 */
export type SealedContents = Record<string, string>;

/** Every file under `dir` but the seal itself and files a system leaves in folders (`.DS_Store`), hashed. */
export function sealedContents(dir: string, seal: string): SealedContents {
  const contents: SealedContents = {};
  const walk = (folder: string): void => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const file = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.isFile() && !strayFile(entry.name) && file !== path.join(dir, seal))
        contents[path.relative(dir, file).split(path.sep).join('/')] = sha256File(file);
    }
  };
  walk(dir);
  return contents;
}

/** Files a desktop's file manager or an editor leaves in any folder: never part of an entry, never a reason to doubt one. */
export function strayFile(name: string): boolean {
  return name === '.DS_Store' || name === 'Thumbs.db' || name === 'desktop.ini';
}

/** What a sealed file is to the user, for the line that says why an entry is doubtful: `the stored signals of "home" are`. */
function described(file: string): string {
  const name = path.posix.basename(file);
  const checkpoint = (suffix: string) => `"${name.slice(0, -suffix.length)}"`;
  if (name.endsWith('.signals.json')) return `the stored signals of ${checkpoint('.signals.json')} are`;
  if (name.endsWith('.layout.json.gz')) return `the stored layout record of ${checkpoint('.layout.json.gz')} is`;
  if (name.endsWith('.png')) return `the stored image of ${checkpoint('.png')} is`;
  return `the stored ${file} is`;
}

/** Why the files under `dir` are not the ones sealed (the first file missing or altered), or null when they are. */
export function contentsProblem(dir: string, contents: SealedContents): string | null {
  for (const [file, hash] of Object.entries(contents)) {
    const full = path.join(dir, ...file.split('/'));
    if (!fs.existsSync(full)) return `${described(file)} missing`;
    if (sha256File(full) !== hash) return `${described(file)} altered`;
  }
  return null;
}
