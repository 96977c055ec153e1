import { readLabels } from '../../src/approve';
import type { Explanation } from '../../src/explain';
import { selectorNames } from '../../src/explain/attribute';
import { recordedBy } from '../../src/explain/properties';
import { stepParts } from '../../src/explain/words';
import { CASES } from './cases';
import { CASES_DIR } from './render';

/**
 * `node dist/scripts/label-corpus/explain-accuracy.js`: how often the explanation names the changed
 * element and property on the labelled corpus, from the explanation each case is stored with
 * (generate.ts renders both sides with their layout records); its truth comes from the case's own edit:
 *
 * - a CSS rule: a change on an element the rule's selector targets, in a property the rule sets
 *   (shorthands mapped to what the record keeps: `background` → background-color…; a rule that
 *   hides an element counts when the element is reported removed);
 * - an HTML edit that adds an element (a new tag): an added element with that tag or one of its
 *   classes; one that removes markup: a removed element; one that changes words only: a text change
 *   that shows a new word; one that changes an attribute value only (a picture's address): a
 *   property whose value shows the edit; one that changes a tag's attributes: a change on an
 *   element of that tag.
 *
 * A case counts when one of its edits is named. Prints the figure and each miss with what was said.
 */

type Check = { what: string; named: (explanation: Explanation) => boolean };

function cssChecks(css: string): Check[] {
  return [...css.matchAll(/([^{}]+)\{([^}]*)\}/g)].flatMap(([, selector, body]) => {
    const declared = [...body.matchAll(/([a-z-]+)\s*:/g)].map((m) => m[1]);
    const properties = declared.flatMap(recordedBy);
    // An element hidden or squashed to nothing leaves the record: reported removed.
    const hides = /display\s*:\s*none|(^|[^-])(height|width)\s*:\s*0(?![.\d])/.test(body);
    return [
      {
        what: `${selector.trim()} { ${declared.join(', ')} }`,
        named: (explanation: Explanation) =>
          explanation.changes.some(
            (change) =>
              selectorNames(selector, change.path) &&
              (change.properties.some((p) => properties.includes(p.property)) || (hides && change.kind === 'removed')),
          ),
      },
    ];
  });
}

const tagsOf = (html: string) =>
  [...html.matchAll(/<([a-z][\w-]*)([^>]*)>/gi)].map((m) => ({
    tag: m[1].toLowerCase(),
    classes: (m[2].match(/class="([^"]*)"/)?.[1] ?? '').split(/\s+/).filter(Boolean),
  }));
const wordsOf = (html: string) =>
  new Set(
    html
      .replace(/<[^>]*>/g, ' ')
      .split(/[^\p{L}\p{N}$%.,:-]+/u)
      .filter((word) => word.length > 1),
  );

function replaceChecks(replace: [string, string][]): Check[] {
  return replace.map(([from, to]) => {
    const before = tagsOf(from);
    const left = [...before];
    const added = tagsOf(to).filter((t) => {
      const same = left.findIndex((b) => b.tag === t.tag && b.classes.join(' ') === t.classes.join(' '));
      if (same >= 0) left.splice(same, 1);
      return same < 0;
    });
    if (added.length) {
      const first = added[0];
      return {
        what: `<${first.tag}${first.classes.length ? ` class="${first.classes.join(' ')}"` : ''}> added`,
        named: (explanation) =>
          explanation.changes.some((change) => {
            const parts = stepParts(change.path);
            return (
              change.kind === 'added' && added.some((t) => parts.tag === t.tag || t.classes.some((name) => parts.classes.includes(name)))
            );
          }),
      };
    }
    if (before.length === 0 && !/[<>]/.test(from) && /["/=]/.test(from))
      return {
        what: `attribute ${from}`,
        named: (explanation) =>
          explanation.changes.some((change) => change.properties.some((p) => p.before.includes(from) || p.after.includes(to))),
      };
    if (tagsOf(to).length < before.length || to.trim() === '')
      return {
        what: `${from.slice(0, 40)} removed`,
        named: (explanation) => explanation.changes.some((change) => change.kind === 'removed'),
      };
    const fresh = [...wordsOf(to)].filter((word) => !wordsOf(from).has(word));
    if (fresh.length)
      return {
        what: `text → ${fresh.join(' ')}`,
        named: (explanation) =>
          explanation.changes.some((change) =>
            change.properties.some((p) => p.property === 'text' && fresh.some((word) => p.after.includes(word))),
          ),
      };
    const edited = before[0]?.tag ?? null;
    return {
      what: `attribute of <${edited ?? '?'}>`,
      named: (explanation) => explanation.changes.some((change) => edited !== null && stepParts(change.path).tag === edited),
    };
  });
}

/** Reads the explanation each case of the corpus was stored with (the generator renders both sides with their layout records). */
function main(): void {
  const stored = new Map(readLabels(CASES_DIR).cases.map((loaded) => [loaded.case.id, loaded.case.explanation ?? null]));
  const misses: string[] = [];
  for (const spec of CASES) {
    const explanation = stored.get(spec.id);
    if (!explanation) {
      misses.push(`- \`${spec.id}\`: no stored explanation: run npm run corpus:labels`);
      continue;
    }
    const checks = [...cssChecks(spec.css ?? ''), ...replaceChecks(spec.replace ?? [])];
    const named = checks.some((check) => check.named(explanation));
    process.stdout.write(`${named ? 'named ' : 'MISSED'} ${spec.id}: ${explanation.summary || explanation.note}\n`);
    if (!named)
      misses.push(`- \`${spec.id}\`: expected ${checks.map((c) => c.what).join(' or ')}; said: ${explanation.summary || explanation.note}`);
  }
  const correct = CASES.length - misses.length;
  process.stdout.write(
    `\n${correct} of ${CASES.length} cases named (${((100 * correct) / CASES.length).toFixed(1)} %)\n${misses.join('\n')}\n`,
  );
  if (misses.some((miss) => miss.includes('no stored explanation'))) process.exitCode = 1;
}

main();
