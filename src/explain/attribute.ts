import type { ChangedLine, CodeChange } from '../types';
import { stepParts } from './words';

/** The file and commit behind an element's change. */
export interface Attribution {
  file: string;
  /** `<short sha> <subject>`; null: the working tree's uncommitted changes. */
  commit: string | null;
  /** The changed line that names the element. */
  line: string;
}

/** What the changed files are searched for: the element's names, its texts, the properties that changed. */
export interface ElementClues {
  path: string;
  texts: string[];
  properties: string[];
}

const STYLE_SHEET = /\.(css|scss|sass|less|styl|pcss)$/i;

/** One compound selector (`footer`, `.plan.pro`, `a#buy.cta:hover`) names the element when each of its parts is the element's. */
function compoundNames(compound: string, element: ReturnType<typeof stepParts>): boolean {
  const plain = compound.replace(/::?[\w-]+(\([^)]*\))?/g, '').replace(/\[[^\]]*\]/g, '');
  const tag = plain.match(/^[a-z][\w-]*/i)?.[0] ?? null;
  const ids = [...plain.matchAll(/#([\w-]+)/g)].map((m) => m[1]);
  const classes = [...plain.matchAll(/\.([\w-]+)/g)].map((m) => m[1]);
  if (!tag && ids.length === 0 && classes.length === 0) return false;
  if (tag && tag.toLowerCase() !== element.tag) return false;
  if (ids.some((id) => id !== element.id)) return false;
  return classes.every((name) => element.classes.includes(name));
}

/** Whether a rule's selector list targets the element: the last compound of any of its selectors names it. */
export function selectorNames(selector: string, path: string): boolean {
  const element = stepParts(path);
  return selector.split(',').some((one) => {
    const compounds = one.trim().split(/\s*[\s>+~]\s*/).filter(Boolean);
    const last = compounds[compounds.length - 1];
    return last !== undefined && compoundNames(last, element);
  });
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether a changed line of a template, component or script names the element: a class, its id, its tag opened, or one of its texts. */
function markupNames(line: string, clues: ElementClues): boolean {
  const element = stepParts(clues.path);
  const words = [...element.classes, ...(element.id ? [element.id] : [])].filter((word) => word.length >= 3);
  if (words.some((word) => new RegExp(`(^|[^\\w-])${escape(word)}(?![\\w-])`).test(line))) return true;
  if (element.tag && !['div', 'span'].includes(element.tag) && new RegExp(`<${escape(element.tag)}(?![\\w-])`, 'i').test(line)) return true;
  return clues.texts.some((text) => text.length >= 4 && line.includes(text));
}

function lineNames(file: string, line: ChangedLine, clues: ElementClues): boolean {
  if (!STYLE_SHEET.test(file)) return markupNames(line.text, clues);
  const selector = line.scope || (line.text.includes('{') ? line.text.split('{')[0] : '');
  return selector.trim() !== '' && selectorNames(selector, clues.path);
}

/**
 * The change that most likely caused what an element shows: the last commit (the working tree
 * after every commit) whose diff names the element, preferring a changed line that also names a
 * property that changed. Null: no changed file mentions the element.
 */
export function attribute(clues: ElementClues, code: readonly CodeChange[]): Attribution | null {
  let named: Attribution | null = null;
  let withProperty: Attribution | null = null;
  for (const change of code)
    for (const line of change.lines) {
      if (!lineNames(change.file, line, clues)) continue;
      const found = { file: change.file, commit: change.commit, line: line.text.trim() };
      named = found;
      if (clues.properties.some((property) => line.text.includes(property))) withProperty = found;
    }
  return withProperty ?? named;
}
