import type { ChangedLine, CodeChange, ElementTarget, Written } from '../git/code-change';
import type { Element } from './line-proofs';
import type { Step } from './selector';

/**
 * Proofs a changed line of a component gives of an element it renders without being the element's
 * own tag or text: an option or prop of the component, a condition or return that decides what it
 * renders, the tag of a component the element is named after; and the lines that write nothing of
 * the element they sit in.
 */

/** A component's tag (`Button`, `Nav.Item`), not an HTML element's. */
export const isComponent = (tag: string) => /^[A-Z]/.test(tag);

/** A changed option or prop: `glyphMargin: true,`, `width={180}`, `lineNumbers="off"`. */
const OPTION = /^\s*[\w$.-]+\s*[:=]/;

/**
 * Whether a changed line is an option or prop set in a component's script or on a component's tag
 * (`glyphMargin: true,` in `DesktopEditor.svelte`), where that file's template writes the element or
 * one it sits in, by a class that tells it apart: a widget's option that widened its gutter. Weaker
 * than a rule: the option's way to the style is not read.
 */
export function optionOfRenderer(change: CodeChange, line: ChangedLine, element: Element): boolean {
  if (element.kind !== 'changed' || !change.rendered?.length || !OPTION.test(line.text)) return false;
  if (line.target && !(line.target.kind === 'element' && isComponent(line.target.tag))) return false;
  return element.sides.some((steps) =>
    steps.slice(2).some((step) => change.rendered!.some((written) => templateWrites(written, step, element))),
  );
}

/** Whether a template writes a page's element: its tag, and its id or a class that tells it apart, and no class it lacks. */
const templateWrites = (written: Written, step: Step, element: Element) =>
  written.tag === step.tag &&
  (written.id ? written.id === step.id : written.classes.some((name) => !element.shared(name))) &&
  written.classes.every((name) => step.classes.includes(name));

/** A line that decides what a component renders: a condition or a return (`if (width <= 1100) {`, `return <NavbarSmall />;`). */
const DECIDES = /^\s*(?:\}\s*)?(?:if|else|return|switch|case)\b/;

/**
 * Whether a changed line decides what a component renders where the element that came or went is
 * one its template writes: `if (width <= 1100) return <NavbarSmall />;` before the unchanged
 * `<nav className="navbar">` is what took that nav off a narrow page. Weaker than its own tag's line.
 */
export function guardOfRenderer(change: CodeChange, line: ChangedLine, element: Element): boolean {
  if (element.kind === 'changed' || !change.rendered?.length || !DECIDES.test(line.text)) return false;
  return element.sides.some((steps) => change.rendered!.some((written) => templateWrites(written, steps[steps.length - 1], element)));
}

/** What a template's loop attribute iterates (`v-for="item in backEndData"`, `*ngFor="let item of items"`, `x-for`), if any. */
const loopOf = (text: string) => text.match(/\s(?:v-for|\*ngFor|x-for)\s*=\s*("[^"]*"|'[^']*')/)?.[1] ?? null;

/**
 * Whether a changed line is the tag of a loop whose list changed (`v-for="item in uiData"` → `in backEndData`), or that came or went
 * with the element, and the element is one of its items or inside one: an item that came or went, or whose text changed with the data.
 * The items' classes are on every item of every such list, so the item is known by its tag, all of the line's classes and its parent;
 * weaker than its own tag's line.
 */
export function itemOfLoop(change: CodeChange, line: ChangedLine, element: Element): boolean {
  const target = line.target;
  const loop = loopOf(line.text);
  if (loop === null || target?.kind !== 'element' || isComponent(target.tag)) return false;
  if (element.kind === 'changed' ? !element.properties.includes('text') : line.added !== (element.kind === 'added')) return false;
  const counterpart = change.lines.find(
    (other) => other.added !== line.added && other.target?.kind === 'element' && other.target.tag === target.tag && loopOf(other.text),
  );
  if (counterpart && loopOf(counterpart.text) === loop) return false;
  return element.sides.some((steps) =>
    steps.some((step, i) => i > 0 && writesItem(target, step) && (!target.parent || writesItem(target.parent, steps[i - 1]))),
  );
}

/** Whether a template's tag is the page's element: the same tag and every class it writes. */
const writesItem = (written: Pick<ElementTarget, 'tag' | 'classes'>, step: Step) =>
  written.tag === step.tag && written.classes.every((name) => step.classes.includes(name));

/** `DataTable` → `data-table`: the class a component's root element commonly takes from its name. */
const kebab = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();

/**
 * Whether a changed line is the tag of a component the element is named after (`<Badge tone="sale" />`
 * renders `span.badge`, `<ChevronDown />` renders `svg.lucide-chevron-down`): the line that renders
 * it. Its props' way to the styles is not read, so a rule that sets what changed wins.
 */
export function rendersNamed(target: ElementTarget, element: Element): boolean {
  if (!isComponent(target.tag)) return false;
  const name = kebab(target.tag.split('.').pop()!);
  return element.sides.some((steps) => steps[steps.length - 1].classes.some((own) => own === name || own.endsWith(`-${name}`)));
}

/**
 * Whether a component's tag came (went) with an element that came (went) in the place it is written: the element's parent is the
 * template element the tag sits in (`<TechnologiesBar … />` added inside `<div class="special-card__right fade-in">` renders the new
 * `div.flex-row` there). The component's own template is not read, so any line of the element's own tag wins.
 */
export function placesComponent(line: ChangedLine, element: Element): boolean {
  const target = line.target;
  if (target?.kind !== 'element' || !isComponent(target.tag) || !target.parent || element.kind === 'changed') return false;
  if (line.added !== (element.kind === 'added')) return false;
  const parent = target.parent;
  return element.sides.some((steps) => {
    const above = steps[steps.length - 2];
    return (
      Boolean(above) &&
      above.tag === parent.tag &&
      parent.classes.length > 0 &&
      parent.classes.every((name) => above.classes.includes(name))
    );
  });
}

/**
 * A template line that writes nothing of the element a parser places it in: closing tags, or the
 * brackets of an expression that renders what is inside it (`{open && (`, `)}`). A later commit
 * that wraps a new dropdown in such brackets inside a nav did not make the nav.
 */
export const WRITES_NOTHING = /^(?:<\/[\w.:-]*>\s*)+$|^\{[^{}]*\($|^\)\s*\}$/;
