import type TypeScript from 'typescript';
import { lazy } from './lazy';

/**
 * TypeScript's compiler, loaded on first use: loading it alone takes half a second, which a warm
 * run, whose test side the import cache answers (see sources/import-cache), must not pay. A module
 * that parses imports the types with `import type ts from 'typescript'` and calls this where it
 * needs the compiler.
 */
export const typescript = lazy(() => require('typescript') as typeof TypeScript);
