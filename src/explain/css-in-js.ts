import { CSS_IN_JS_CLASS } from '../git/css-in-js-lines';
import { isCssInJsClass } from './generated-classes';
import type { ClassTest } from './selector';

/**
 * A class test for rules read from scripts and plain style sheets: a CSS-in-JS template's rule
 * (its class CSS_IN_JS_CLASS, git/css-in-js-lines) holds on an element with a class such a library
 * generated (generated-classes.ts); every other class by its name.
 */
export const cssInJsClass: ClassTest = (named, has) => (named === CSS_IN_JS_CLASS ? isCssInJsClass(has) : named === has);
