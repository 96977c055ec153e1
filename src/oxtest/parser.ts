/**
 * The oxtest language: one command a line, `command key=value …`, `#` comments.
 * A whole file is parsed before anything runs, so a typo on line 40 fails the test before line 1
 * has clicked anything.
 */

export const SELECTOR_STRATEGIES = ['css', 'text', 'xpath', 'testid', 'role', 'placeholder'] as const;
export type SelectorStrategy = (typeof SELECTOR_STRATEGIES)[number];

export interface SelectorSpec {
  strategy: SelectorStrategy;
  value: string;
  /** The accessible name, for `role=`. */
  name?: string;
}

export interface OxCommand {
  command: CommandName;
  /** 1-based line in the file. */
  line: number;
  /** The line as written, trimmed: the step title in the report. */
  source: string;
  selector: SelectorSpec | null;
  fallback: SelectorSpec | null;
  params: Record<string, string>;
}

type SelectorUse = 'required' | 'optional' | 'none';

interface CommandShape {
  selector: SelectorUse;
  required: string[];
  optional: string[];
}

const ELEMENT_TIMEOUT = ['timeout'];

/** What each command takes; anything else on the line is a parse error. */
export const COMMANDS = {
  navigate: { selector: 'none', required: ['url'], optional: [] },
  click: { selector: 'required', required: [], optional: ELEMENT_TIMEOUT },
  fill: { selector: 'required', required: ['value'], optional: ELEMENT_TIMEOUT },
  type: { selector: 'required', required: ['value'], optional: ['delay', ...ELEMENT_TIMEOUT] },
  press: { selector: 'optional', required: ['key'], optional: ELEMENT_TIMEOUT },
  check: { selector: 'required', required: [], optional: ELEMENT_TIMEOUT },
  uncheck: { selector: 'required', required: [], optional: ELEMENT_TIMEOUT },
  selectOption: { selector: 'required', required: ['value'], optional: ELEMENT_TIMEOUT },
  hover: { selector: 'required', required: [], optional: ELEMENT_TIMEOUT },
  wait: { selector: 'none', required: ['duration'], optional: [] },
  waitForSelector: { selector: 'required', required: [], optional: ['state', ...ELEMENT_TIMEOUT] },
  assertVisible: { selector: 'required', required: [], optional: ELEMENT_TIMEOUT },
  assertHidden: { selector: 'required', required: [], optional: ELEMENT_TIMEOUT },
  assertText: { selector: 'required', required: ['text'], optional: ELEMENT_TIMEOUT },
  assertValue: { selector: 'required', required: ['value'], optional: ELEMENT_TIMEOUT },
  assertUrl: { selector: 'none', required: ['pattern'], optional: ELEMENT_TIMEOUT },
  assertTitle: { selector: 'none', required: ['text'], optional: ELEMENT_TIMEOUT },
  getText: { selector: 'required', required: ['store_as'], optional: ELEMENT_TIMEOUT },
  set: { selector: 'none', required: ['var', 'value'], optional: [] },
  log: { selector: 'none', required: ['message'], optional: [] },
  checkpoint: { selector: 'optional', required: ['name'], optional: ['intent'] },
} satisfies Record<string, CommandShape>;

export type CommandName = keyof typeof COMMANDS;

const WAIT_STATES = ['attached', 'detached', 'visible', 'hidden'];
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export class OxtestParseError extends Error {}

/** A token of `key=value`, the value unquoted; `raw` keeps quotes for values re-parsed later (fallback=). */
interface Token {
  key: string;
  value: string;
  raw: string;
}

function unquote(raw: string): string {
  const quote = raw[0];
  if (raw.length < 2 || (quote !== '"' && quote !== "'") || raw[raw.length - 1] !== quote) return raw;
  return raw.slice(1, -1).replace(/\\(.)/g, '$1');
}

/** Splits a line into words at whitespace outside quotes; a word may hold quoted parts (`css=a[title="x y"]`). */
function words(text: string): string[] {
  const out: string[] = [];
  let current = '';
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      current += ch;
      if (ch === '\\' && i + 1 < text.length) current += text[++i];
      else if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      current += ch;
    } else if (/\s/.test(ch)) {
      if (current) out.push(current);
      current = '';
    } else current += ch;
  }
  if (quote) throw new OxtestParseError(`unterminated ${quote} quote`);
  if (current) out.push(current);
  return out;
}

function token(word: string): Token {
  const eq = word.indexOf('=');
  if (eq <= 0) throw new OxtestParseError(`expected key=value, got "${word}" (quote a value with spaces: css="form button")`);
  const raw = word.slice(eq + 1);
  return { key: word.slice(0, eq), value: unquote(raw), raw };
}

function isStrategy(key: string): key is SelectorStrategy {
  return (SELECTOR_STRATEGIES as readonly string[]).includes(key);
}

function selectorFrom(strategy: SelectorStrategy, value: string): SelectorSpec {
  if (!value) throw new OxtestParseError(`${strategy}= needs a value`);
  return { strategy, value };
}

/** `fallback=text="Log in"` or `fallback=role=button` (its `name=` follows as the next token). */
function fallbackFrom(raw: string): SelectorSpec {
  const inner = unquote(raw);
  const eq = inner.indexOf('=');
  const strategy = eq > 0 ? inner.slice(0, eq) : '';
  if (!isStrategy(strategy))
    throw new OxtestParseError(`fallback= needs a selector such as fallback=text="Log in" (strategies: ${SELECTOR_STRATEGIES.join(', ')})`);
  return selectorFrom(strategy, unquote(inner.slice(eq + 1)));
}

/** Parses one command line (no comment, not blank). Throws OxtestParseError without the location. */
export function parseCommandLine(text: string, line = 1): OxCommand {
  const source = text.trim();
  const [head, ...rest] = words(source);
  if (!(head in COMMANDS)) throw new OxtestParseError(`unknown command "${head}" (commands: ${Object.keys(COMMANDS).join(', ')})`);
  const command = head as CommandName;
  const shape: CommandShape = COMMANDS[command];
  let selector: SelectorSpec | null = null;
  let fallback: SelectorSpec | null = null;
  const params: Record<string, string> = {};
  // `name=` right after `role=` (or `fallback=role=`) is that role's accessible name.
  let openRole: SelectorSpec | null = null;
  const tokens = rest.map(token);
  // `text` is both a strategy and a parameter (assertText, assertTitle): the last `text=` on
  // the line is the parameter, an earlier one the selector.
  const lastParamIndex = new Map(tokens.map((t, index) => [t.key, index]));
  tokens.forEach(({ key, value, raw }, index) => {
    if (key === 'name' && openRole) {
      openRole.name = value;
      openRole = null;
      return;
    }
    openRole = null;
    const isParam = shape.required.includes(key) || shape.optional.includes(key);
    if (isStrategy(key) && !(isParam && lastParamIndex.get(key) === index)) {
      if (shape.selector === 'none') throw new OxtestParseError(`${command} takes no selector (got ${key}=)`);
      if (selector) throw new OxtestParseError(`more than one selector: use fallback= for a second one`);
      selector = selectorFrom(key, value);
      if (key === 'role') openRole = selector;
    } else if (key === 'fallback') {
      if (fallback) throw new OxtestParseError('more than one fallback=');
      fallback = fallbackFrom(raw);
      if (fallback.strategy === 'role') openRole = fallback;
    } else if (isParam) {
      if (key in params) throw new OxtestParseError(`${key}= given twice`);
      params[key] = value;
    } else {
      const allowed = [...shape.required, ...shape.optional];
      const takes = allowed.length ? `it takes ${allowed.join(', ')}` : 'it takes no parameters';
      throw new OxtestParseError(`${command} does not take ${key}= (${takes}${shape.selector === 'none' ? '' : ' and a selector'})`);
    }
  });
  if (fallback && !selector) throw new OxtestParseError('fallback= needs a primary selector before it');
  if (shape.selector === 'required' && !selector)
    throw new OxtestParseError(`${command} needs a selector: ${SELECTOR_STRATEGIES.map((s) => `${s}=`).join(', ')}`);
  const missing = shape.required.filter((key) => !(key in params));
  if (missing.length) throw new OxtestParseError(`${command} needs ${missing.map((key) => `${key}=`).join(' and ')}`);
  checkValues(command, params);
  return { command, line, source, selector, fallback, params };
}

function checkValues(command: CommandName, params: Record<string, string>): void {
  for (const key of ['timeout', 'duration', 'delay']) {
    const value = params[key];
    if (value !== undefined && !/^\d+$/.test(value))
      throw new OxtestParseError(`${key}= must be a whole number of milliseconds (got "${value}")`);
  }
  if (params.state !== undefined && !WAIT_STATES.includes(params.state))
    throw new OxtestParseError(`state= must be one of ${WAIT_STATES.join(', ')} (got "${params.state}")`);
  for (const key of ['var', 'store_as'])
    if (params[key] !== undefined && !VARIABLE_NAME.test(params[key]))
      throw new OxtestParseError(`${key}= must be a variable name (letters, digits, _), got "${params[key]}"`);
  if (command === 'assertUrl' && !params.pattern.includes('${')) {
    try {
      new RegExp(params.pattern);
    } catch (error) {
      throw new OxtestParseError(`pattern= is not a valid regular expression: ${(error as Error).message}`);
    }
  }
}

/** Parses a whole file. Throws `<file>:<line>: <message>` on the first bad line. */
export function parseOxtest(text: string, file: string): OxCommand[] {
  const commands: OxCommand[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const trimmed = raw.trim();
    if (!trimmed || trimmed.startsWith('#')) return;
    try {
      commands.push(parseCommandLine(trimmed, index + 1));
    } catch (error) {
      if (error instanceof OxtestParseError) throw new OxtestParseError(`${file}:${index + 1}: ${error.message}`);
      throw error;
    }
  });
  return commands;
}
