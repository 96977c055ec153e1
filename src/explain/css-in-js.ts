import { CSS_IN_JS_CLASS } from '../git/css-in-js-lines';
import type { ClassTest } from './selector';

/** The classes styled-components (`sc-<component id>`) and emotion (`css-<hash>`, `css-<hash>-<label>`) give the elements they style. */
const GENERATED = /^(sc-[A-Za-z0-9]+|css-[a-z0-9]+(-[\w-]+)?)$/;

/**
 * A class test for rules read from scripts and plain style sheets: a CSS-in-JS template's rule
 * (its class CSS_IN_JS_CLASS, git/css-in-js-lines) holds on an element with a class such a library
 * generated; every other class by its name.
 */
export const cssInJsClass: ClassTest = (named, has) => (named === CSS_IN_JS_CLASS ? GENERATED.test(has) : named === has);
