import { describe, expect, it } from 'vitest';
import { parseCommandLine, parseOxtest } from '../../../src/oxtest/parser';
import { createVariables, resolveText } from '../../../src/oxtest/variables';

const parse = (line: string) => parseCommandLine(line, 1);
const error = (text: string) => {
  try {
    parseOxtest(text, 'flows/login.ox.test');
  } catch (caught) {
    return (caught as Error).message;
  }
  throw new Error('expected a parse error');
};

describe('parseOxtest on valid files', () => {
  it('skips comments and blank lines and keeps line numbers and sources', () => {
    const commands = parseOxtest(
      '# login flow\n\nnavigate url=/login\n  # indented comment\n  click css=button.primary  \r\n',
      'x.ox.test',
    );
    expect(commands).toEqual([
      { command: 'navigate', line: 3, source: 'navigate url=/login', selector: null, fallback: null, params: { url: '/login' } },
      {
        command: 'click',
        line: 5,
        source: 'click css=button.primary',
        selector: { strategy: 'css', value: 'button.primary' },
        fallback: null,
        params: {},
      },
    ]);
  });

  it('unquotes double and single quoted values with escapes', () => {
    expect(parse(`fill css="form input[name='email']" value="say \\"hi\\" there"`)).toMatchObject({
      selector: { strategy: 'css', value: "form input[name='email']" },
      params: { value: 'say "hi" there' },
    });
    expect(parse("log message='it works'").params).toEqual({ message: 'it works' });
  });

  it('keeps quotes that are part of a CSS selector', () => {
    expect(parse('click css=input[title="first name"]').selector).toEqual({ strategy: 'css', value: 'input[title="first name"]' });
  });

  it('parses every selector strategy', () => {
    expect(parse('click text="Sign in"').selector).toEqual({ strategy: 'text', value: 'Sign in' });
    expect(parse('click xpath=//button[@id="go"]').selector).toEqual({ strategy: 'xpath', value: '//button[@id="go"]' });
    expect(parse('click testid=submit').selector).toEqual({ strategy: 'testid', value: 'submit' });
    expect(parse('click role=button name="Sign in"').selector).toEqual({ strategy: 'role', value: 'button', name: 'Sign in' });
    expect(parse('click role=link').selector).toEqual({ strategy: 'role', value: 'link' });
    expect(parse('fill placeholder="Your email" value=a@b.c').selector).toEqual({ strategy: 'placeholder', value: 'Your email' });
  });

  it('parses fallbacks, a role fallback taking the name after it', () => {
    expect(parse('click css=button.login fallback=text="Log in"')).toMatchObject({
      selector: { strategy: 'css', value: 'button.login' },
      fallback: { strategy: 'text', value: 'Log in' },
    });
    expect(parse('click css=#go fallback=role=button name="Go now"').fallback).toEqual({
      strategy: 'role',
      value: 'button',
      name: 'Go now',
    });
    expect(parse('click css=#go fallback="text=Go now"').fallback).toEqual({ strategy: 'text', value: 'Go now' });
  });

  it('tells a checkpoint name from a role name by position', () => {
    expect(parse('checkpoint name=plans role=region name=Pricing intent="The three plans"')).toMatchObject({
      selector: { strategy: 'role', value: 'region', name: 'Pricing' },
      params: { name: 'plans', intent: 'The three plans' },
    });
    expect(parse('checkpoint name=page')).toMatchObject({ selector: null, params: { name: 'page' } });
  });

  it('reads the last text= of assertText as the expected text, an earlier one as the selector', () => {
    expect(parse('assertText css=h1 text=Welcome')).toMatchObject({
      selector: { strategy: 'css', value: 'h1' },
      params: { text: 'Welcome' },
    });
    expect(parse('assertText text=Hello text="Hello, Ann"')).toMatchObject({
      selector: { strategy: 'text', value: 'Hello' },
      params: { text: 'Hello, Ann' },
    });
    expect(parse('assertTitle text="Acme pricing"')).toMatchObject({ selector: null, params: { text: 'Acme pricing' } });
  });

  it('accepts every command in its documented form', () => {
    const lines = [
      'navigate url=https://example.com/a?b=c',
      'click css=a',
      'fill css=input value=x',
      'type css=input value=x delay=20',
      'press key=Enter',
      'press css=input key=Tab',
      'check css=#terms',
      'uncheck css=#terms',
      'selectOption css=select value=pro',
      'hover css=.menu',
      'wait duration=500',
      'waitForSelector css=.toast state=hidden timeout=2000',
      'assertVisible css=h1',
      'assertHidden css=.spinner',
      'assertText css=h1 text=Hi',
      'assertValue css=input value=x',
      'assertUrl pattern=.*/home$',
      'assertTitle text=Home',
      'getText css=.order store_as=order_id',
      'set var=USER value=ann',
      'log message="order ${order_id}"',
      'checkpoint name=home css=main',
    ];
    expect(parseOxtest(lines.join('\n'), 'all.ox.test').map((c) => c.command)).toEqual([
      'navigate',
      'click',
      'fill',
      'type',
      'press',
      'press',
      'check',
      'uncheck',
      'selectOption',
      'hover',
      'wait',
      'waitForSelector',
      'assertVisible',
      'assertHidden',
      'assertText',
      'assertValue',
      'assertUrl',
      'assertTitle',
      'getText',
      'set',
      'log',
      'checkpoint',
    ]);
  });
});

describe('parseOxtest on malformed files', () => {
  it.each([
    ['navigate url=/\nclik css=a', 'flows/login.ox.test:2: unknown command "clik"'],
    ['click', 'flows/login.ox.test:1: click needs a selector: css=, text=, xpath=, testid=, role=, placeholder='],
    ['fill css=input', 'flows/login.ox.test:1: fill needs value='],
    ['set var=A', 'flows/login.ox.test:1: set needs value='],
    ['navigate', 'flows/login.ox.test:1: navigate needs url='],
    ['navigate url=/ css=a', 'flows/login.ox.test:1: navigate takes no selector (got css=)'],
    ['click css=a colour=red', 'flows/login.ox.test:1: click does not take colour= (it takes timeout and a selector)'],
    ['click css=a css=b', 'flows/login.ox.test:1: more than one selector: use fallback= for a second one'],
    ['click fallback=text=Go', 'flows/login.ox.test:1: fallback= needs a primary selector before it'],
    ['click css=a fallback=Go', 'flows/login.ox.test:1: fallback= needs a selector such as fallback=text="Log in"'],
    ['click text="Sign in', 'flows/login.ox.test:1: unterminated " quote'],
    ['click css=form button', 'flows/login.ox.test:1: expected key=value, got "button" (quote a value with spaces: css="form button")'],
    ['click css=', 'flows/login.ox.test:1: css= needs a value'],
    ['wait duration=soon', 'flows/login.ox.test:1: duration= must be a whole number of milliseconds (got "soon")'],
    ['waitForSelector css=a state=gone', 'flows/login.ox.test:1: state= must be one of attached, detached, visible, hidden (got "gone")'],
    ['getText css=a store_as=my-var', 'flows/login.ox.test:1: store_as= must be a variable name'],
    ['assertUrl pattern=(unclosed', 'flows/login.ox.test:1: pattern= is not a valid regular expression'],
    ['fill css=a value=1 value=2', 'flows/login.ox.test:1: value= given twice'],
  ])('%j fails with %j', (text, message) => {
    expect(error(text)).toContain(message);
  });

  it('reports the first bad line of the file', () => {
    expect(error('navigate url=/\n\n# fine\nclick\nfill css=a')).toMatch(/^flows\/login\.ox\.test:4: /);
  });
});

describe('variables', () => {
  it('resolve from the environment, then set variables, then stored values', () => {
    const variables = createVariables({ WHO: 'env' });
    variables.set.set('WHO', 'set');
    variables.set.set('PLAN', 'pro');
    variables.stored.set('PLAN', 'stored');
    variables.stored.set('order', '42');
    expect(resolveText('${WHO}/${PLAN}/${order}', variables)).toBe('env/pro/42');
  });

  it('fail on an unresolved name, naming it', () => {
    expect(() => resolveText('hi ${MISSING}', createVariables({}))).toThrow(
      'unresolved variable ${MISSING}: set it in the environment, with set var=MISSING value=…',
    );
  });
});
