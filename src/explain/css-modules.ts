import { escapeRegExp } from '../util/text';

/**
 * CSS Modules: the class a page carries is generated from the class a module file names (its
 * "local" name). Only patterns that keep the local name in the generated one can be read back; a
 * pure hash (css-loader's default `[hash:base64]`) cannot, and nothing here pretends it can. The
 * docs/explanations-and-signals.md ("What changed, in words") lists the patterns recognised.
 */

const MODULE_FILE = /\.module\.(css|scss|sass|less|pcss|styl)$/i;

export const isModuleFile = (file: string): boolean => MODULE_FILE.test(file);

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

/**
 * Whether `generated` (a class on the page) is what a recognised CSS Modules pattern makes of the
 * class `local` in the module `file`. Where the pattern keeps the file's name, it must be this file's.
 */
export function generatedFrom(generated: string, local: string, file: string): boolean {
  return generated.includes(local) && patterns(file, escapeRegExp(local)).some((pattern) => pattern.test(generated));
}

/** Whether `generated` has the shape a recognised pattern gives the classes of the module `file`, whatever its local name. */
export function generatedBy(generated: string, file: string): boolean {
  return patterns(file, '[\\w-]+').some((pattern) => pattern.test(generated));
}
