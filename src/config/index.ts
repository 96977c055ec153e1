export { withVisualUat } from './with-visual-uat';
export { resolveOptions, optionsFromEnv, type ResolvedOptions } from './options';
export { applySystemChromium, systemChromium, CHROMIUM_ENV } from './browser';
export * from './layout';
