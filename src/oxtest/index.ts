export { defineOxTests, OXTEST_EXTENSION } from './define';
export { test, type OxtestFixtures, type OxtestRunner } from './fixture';
export { runOxtestFile, FALLBACK_ANNOTATION } from './runner';
export {
  parseOxtest,
  parseCommandLine,
  OxtestParseError,
  COMMANDS,
  SELECTOR_STRATEGIES,
  type OxCommand,
  type SelectorSpec,
  type CommandName,
} from './parser';
export { executeCommand, type OxContext } from './commands';
export { locate, describeSelector } from './selectors';
export { createVariables, type Variables } from './variables';
