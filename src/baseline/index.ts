export { default as globalSetup } from './global-setup';
export { runBaselinePass, nestedArgs, freePort } from './pass';
export { provideDependencies } from '../checkout/dependencies';
