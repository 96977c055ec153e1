/**
 * The classes CSS-in-JS libraries write on the elements they style. styled-components gives each
 * element its component's id (`sc-gsDKAQ`, or `Navbar__Wrapper-sc-1x2y3z` with its babel plugin's
 * display name) and then a class made from the hash of its CSS (`jVRBrf`, `hA-dBcX`), which changes
 * with every edit of that CSS; emotion a class made from the hash of its styles (`css-1x2y3z`, with
 * its label: `css-1x2y3z-Button`). None is a name a reviewer can search the source for, and the
 * hashed ones rename an element whose style changed: an element is paired across the two sides,
 * and named, without them.
 */

/** A styled-components component id: `sc-gsDKAQ`, or the babel plugin's `Navbar__Wrapper-sc-1x2y3z` (its display name captured). */
const COMPONENT_ID = /^(?:([\w-]+?)-)?sc-[A-Za-z0-9]+$/;

/** The class styled-components makes from a component's CSS (letters, `ad` split as `a-d`), right after its component ids. */
const STYLED_HASH = /^(?=[A-Za-z-]{3,10}$)(?:[A-Za-z]|[aA]-(?=[dD]))+$/;

/** emotion's class: `css-` and the styles' hash, then the label its babel plugin or `label:` adds (the component's name). */
const EMOTION = /^css-[a-z0-9]{4,}(?:-([\w-]+))?$/;

/** Whether a class is one a CSS-in-JS library generates: a styled-components id or an emotion class (not the hash after an id). */
export const isCssInJsClass = (name: string): boolean => COMPONENT_ID.test(name) || EMOTION.test(name);

/**
 * The class a framework adds to a component's elements to scope its styles: Svelte's `svelte-` and
 * the base-36 hash of the component's CSS (Svelte 3 to 5), which changes with every edit of that CSS;
 * vite-plugin-svelte's `s-` and 12 characters of a file name's base64 hash in development; Astro's
 * `astro-` and 8 characters. No template writes it.
 */
const SCOPING = /^(?:svelte-[a-z0-9]{5,7}|s-(?=[\w-]{0,11}[A-Z0-9_-])[\w-]{12}|astro-[A-Za-z0-9]{8})$/;

export const isScopingClass = (name: string): boolean => SCOPING.test(name);

/** Whether a class is one a build generated rather than a template wrote (CSS-in-JS, a framework's scoping). */
export const isGeneratedClass = (name: string): boolean => isCssInJsClass(name) || isScopingClass(name);

/**
 * An element's classes without those a build generated: a CSS-in-JS library's component ids, the
 * class made from its CSS that follows them, emotion's classes, a framework's scoping class. What is
 * left is what its source writes.
 */
export function writtenClasses(classes: readonly string[]): string[] {
  const lastId = classes.reduce((last, name, i) => (COMPONENT_ID.test(name) ? i : last), -1);
  return classes.filter((name, i) => !isGeneratedClass(name) && !(lastId >= 0 && i === lastId + 1 && STYLED_HASH.test(name)));
}

/**
 * The component a CSS-in-JS class names, where the build wrote it in: the babel plugin's display
 * name (`Navbar__Wrapper-sc-1x2y3z` → `Wrapper` in `Navbar`), emotion's label (`css-1x2y3z-Button` →
 * `Button`); null for a bare `sc-gsDKAQ` or `css-1x2y3z`.
 */
export function componentOf(classes: readonly string[]): { name: string; file: string | null } | null {
  for (const name of classes) {
    const display = name.match(COMPONENT_ID)?.[1] ?? name.match(EMOTION)?.[1];
    if (!display) continue;
    const [file, component] = display.includes('__') ? display.split('__', 2) : [null, display];
    return { name: component, file };
  }
  return null;
}
