import { escapeRegExp } from '../util/text';

/**
 * CSS Modules: the class a page carries is generated from the class a module file names (its
 * "local" name). Only patterns that keep the local name in the generated one can be read back; a
 * pure hash (css-loader's default `[hash:base64]`) cannot, and nothing here pretends it can. The
 * README ("What changed, in words") lists the patterns recognised.
 */

const MODULE_FILE = /\.module\.(css|scss|sass|less|pcss|styl)$/i;

export const isModuleFile = (file: string): boolean => MODULE_FILE.test(file);

/**
 * Whether `generated` (a class on the page) is what a recognised CSS Modules pattern makes of the
 * class `local` in the module `file`. Where the pattern keeps the file's name, it must be this file's.
 */
export function generatedFrom(generated: string, local: string, file: string): boolean {
  if (!generated.includes(local)) return false;
  const l = escapeRegExp(local);
  const base = file.split('/').pop()?.replace(MODULE_FILE, '') ?? '';
  const folder = file.split('/').slice(-2, -1)[0] ?? '';
  // Next.js and Create React App name an index.module.css after its folder; other characters become `_`.
  const nextName = escapeRegExp((base === 'index' ? folder : base).replace(/[^A-Za-z0-9_-]/g, '_'));
  // css-loader's and Lightning CSS's `[name]` is `header.module`, its `.` escaped (`-`, or `_`).
  const loaderName = `${escapeRegExp(base.replace(/[^A-Za-z0-9_-]/g, '-'))}[-_]module`;
  if (new RegExp(`^_${l}_[a-z0-9]{1,5}_\\d+$`).test(generated)) return true;
  if (new RegExp(`^${nextName}_${l}__[\\w-]{5}$`).test(generated)) return true;
  if (new RegExp(`^${loaderName}__[\\w-]+__${l}$`).test(generated)) return true;
  if (new RegExp(`^(?:[\\w-]*-)?${loaderName}__${l}(?:___[\\w-]+|--[\\w-]+)?$`).test(generated)) return true;
  // A bare hash before the name: only one that looks like a hash (a digit or a capital in it), not `nav_item` for `item`.
  const hashed = generated.match(new RegExp(`^([\\w-]{5,8})_${l}$`));
  return hashed !== null && /[A-Z0-9]/.test(hashed[1]);
}
