export { withVisualUat } from './with-visual-uat';
export { resolveOptions, optionsFromEnv, type ResolvedOptions } from './settings';
export { applySystemChromium, systemChromium } from './browser';
export * from './environment';
