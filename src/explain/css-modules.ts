import { MODULE_FILE } from '../git/source-lines';
import { escapeRegExp } from '../util/text';

export { isModuleFile } from '../git/source-lines';

/**
 * CSS Modules: the class a page carries is generated from the class a module file names (its
 * "local" name). Only patterns that keep the local name in the generated one can be read back; a
 * pure hash (css-loader's default `[hash:base64]`) cannot, and nothing here pretends it can. The
 * docs/explanations-and-signals.md ("What changed, in words") lists the patterns recognised.
 */

const made = new Map<string, RegExp[]>();

/** The recognised patterns for the module `file`, with `local` (a regular expression) where the local name goes; made once per pair. */
function patterns(file: string, local: string): RegExp[] {
  const key = `${file}\0${local}`;
  const known = made.get(key);
  if (known) return known;
  const base = file.split('/').pop()?.replace(MODULE_FILE, '') ?? '';
  const folder = file.split('/').slice(-2, -1)[0] ?? '';
  // Next.js and Create React App name an index.module.css after its folder; other characters become `_`.
  const nextName = escapeRegExp((base === 'index' ? folder : base).replace(/[^A-Za-z0-9_-]/g, '_'));
  // css-loader's and Lightning CSS's `[name]` is `header.module`, its `.` escaped (`-`, or `_`).
  const loaderName = `${escapeRegExp(base.replace(/[^A-Za-z0-9_-]/g, '-'))}[-_]module`;
  const list = [
    new RegExp(`^_${local}_[a-z0-9]{1,5}_\\d+$`),
    new RegExp(`^${nextName}_${local}__[\\w-]{5}$`),
    new RegExp(`^${loaderName}__[\\w-]+__${local}$`),
    new RegExp(`^(?:[\\w-]*-)?${loaderName}__${local}(?:___[\\w-]+|--[\\w-]+)?$`),
    // A bare hash before the name: only one that looks like a hash (a digit or a capital in it), not `nav_item` for `item`.
    new RegExp(`^(?=[\\w-]{0,7}[A-Z0-9])[\\w-]{5,8}_${local}$`),
  ];
  made.set(key, list);
  return list;
}

/** A CSS Module file of the branch's diff and the classes its rules write (CodeChange.classes). */
export interface ModuleClasses {
  file: string;
  classes: readonly string[];
}

/**
 * The shapes a generated class has whatever its module, the local name captured: Vite and
 * postcss-modules (`_label_cs8t7_1`), Turbopack in development (`Header-module__8aZ1qW__navbar`),
 * css-loader (`Header-module__navbar___x1Y2z`), Next.js and CRA (`Header_navbar__x1Y2z`, a hash
 * with a digit or a capital). Lightning CSS's `[hash]_[local]` is read only with its file: alone,
 * it is a plain `Button2_primary`.
 */
const SHAPES = [
  /^_([\w-]+)_[a-z0-9]{1,5}_\d+$/,
  /^[\w-]+?[-_]module__[\w-]+__([\w-]+)$/,
  /^[\w-]+?[-_]module__([\w-]+?)(?:___[\w-]+)?$/,
  /^[A-Za-z][\w-]*?_([A-Za-z][\w-]*)__(?=[\w-]{0,4}[A-Z0-9])[\w-]{5}$/,
];

/** A page's class read back to the class its module writes, and that module's file where one module of the diff writes it. */
export interface SourceClass {
  local: string;
  file: string | null;
}

const readBack = new WeakMap<readonly ModuleClasses[], Map<string, SourceClass | null>>();

/**
 * The source class behind a generated one (`_label_cs8t7_1` → `.label` in nav-item.module.scss):
 * first through the modules the diff read (the file then known when only one writes that class),
 * else by the shape alone; null for a class no pattern made.
 */
export function sourceClass(generated: string, modules: readonly ModuleClasses[]): SourceClass | null {
  let known = readBack.get(modules);
  if (!known) readBack.set(modules, (known = new Map()));
  if (known.has(generated)) return known.get(generated)!;
  const found = modules.flatMap(({ file, classes }) =>
    classes.filter((local) => generatedFrom(generated, local, file)).map((local) => ({ local, file })),
  );
  const files = new Set(found.map(({ file }) => file));
  const shaped = SHAPES.map((shape) => generated.match(shape)?.[1]).find(Boolean);
  const read = found.length
    ? { local: found[0].local, file: files.size === 1 ? found[0].file : null }
    : shaped
      ? { local: shaped, file: null }
      : null;
  known.set(generated, read);
  return read;
}

/**
 * Whether `generated` (a class on the page) is what a recognised CSS Modules pattern makes of the
 * class `local` in the module `file`. Where the pattern keeps the file's name, it must be this file's;
 * where it keeps a hash of the module (Vite's), the hash must not be another module's (`owners`).
 */
export function generatedFrom(generated: string, local: string, file: string, owners?: HashOwners): boolean {
  return (
    generated.includes(local) &&
    patterns(file, escapeRegExp(local)).some((pattern) => pattern.test(generated)) &&
    !ownedElsewhere(generated, file, owners)
  );
}

/** Vite's (postcss-modules') `_[local]_[hash]_[line]`: the hash is its module's (of its text), on every class the module generates. */
const HASHED = /^_([\w-]+)_([a-z0-9]{1,5})_\d+$/;

/** The module file each hash of a page's generated classes belongs to; null where the changed modules disagree. */
export type HashOwners = ReadonlyMap<string, string | null>;

/** A changed file and, for a CSS Module, the classes its rules write (CodeChange's). */
type Written = { file: string; classes?: readonly string[] };

const ownersOf = new WeakMap<readonly string[], { code: readonly Written[]; owners: HashOwners }>();

/**
 * Which module each hash of the page's Vite-generated classes is, where exactly one changed module
 * writes the local name of a class carrying it (`_wrap__hero_1655j_1`: only Hero.module.scss writes
 * `.wrap__hero`, so `1655j` is Hero's, and `_title_1655j_14` is never Swiper.module.scss's `.title`).
 * `classes`: the page's classes (both sides), read once per page.
 */
export function hashOwners(page: readonly string[], classes: Iterable<string>, code: readonly Written[]): HashOwners {
  const known = ownersOf.get(page);
  if (known?.code === code) return known.owners;
  const owners = new Map<string, string | null>();
  for (const name of classes) {
    const [, local, hash] = name.match(HASHED) ?? [];
    const files = hash ? new Set(code.filter((change) => change.classes?.includes(local)).map((change) => change.file)) : new Set();
    if (files.size !== 1) continue;
    const [file] = files as Set<string>;
    const owner = owners.get(hash);
    owners.set(hash, owner === undefined || owner === file ? file : null);
  }
  ownersOf.set(page, { code, owners });
  return owners;
}

/** The module hash a Vite-generated class carries (null: not one), read once per class. */
const hashes = new Map<string, string | null>();

/** Whether a Vite-generated class carries the hash of a module other than `file`. */
function ownedElsewhere(generated: string, file: string, owners: HashOwners | undefined): boolean {
  if (!owners?.size) return false;
  let hash = hashes.get(generated);
  if (hash === undefined) hashes.set(generated, (hash = generated.match(HASHED)?.[2] ?? null));
  const owner = hash ? owners.get(hash) : null;
  return typeof owner === 'string' && owner !== file;
}

/** Whether `generated` has the shape a recognised pattern gives the classes of the module `file`, whatever its local name. */
export function generatedBy(generated: string, file: string): boolean {
  return patterns(file, '[\\w-]+').some((pattern) => pattern.test(generated));
}

/**
 * A class that may be a hash alone (`Xk3f9q`: letters with a digit or a capital, no separator): a CSS Modules name no pattern here reads.
 */
export const looksHashed = (name: string) => /^[A-Za-z0-9]{5,12}$/.test(name) && /[0-9]/.test(name) && /[A-Za-z]/.test(name);
