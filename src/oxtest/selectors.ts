import type { Locator, Page } from '@playwright/test';
import type { SelectorSpec } from './parser';
import { resolveText, type Variables } from './variables';

/** The Playwright locator of one selector, variables resolved. */
export function locate(page: Page, spec: SelectorSpec, variables: Variables): Locator {
  const value = resolveText(spec.value, variables);
  switch (spec.strategy) {
    case 'css':
      return page.locator(`css=${value}`);
    case 'xpath':
      return page.locator(`xpath=${value}`);
    case 'text':
      return page.getByText(value);
    case 'testid':
      return page.getByTestId(value);
    case 'placeholder':
      return page.getByPlaceholder(value);
    case 'role':
      return page.getByRole(
        value as Parameters<Page['getByRole']>[0],
        spec.name === undefined ? {} : { name: resolveText(spec.name, variables) },
      );
  }
}

/** As written in a file: `role=button name="Sign in"`. */
export function describeSelector(spec: SelectorSpec): string {
  const quoted = (value: string) => (/[\s"']/.test(value) ? JSON.stringify(value) : value);
  return `${spec.strategy}=${quoted(spec.value)}${spec.name === undefined ? '' : ` name=${quoted(spec.name)}`}`;
}

export interface Target {
  locator: Locator;
  /** Set when the primary selector found nothing and the fallback was used. */
  fallbackNote: string | null;
}

/**
 * The element a command acts on. With a fallback, waits until either selector finds something,
 * then prefers the primary: the fallback is only for a primary that matches nothing.
 */
export async function resolveTarget(
  page: Page,
  primary: SelectorSpec,
  fallback: SelectorSpec | null,
  variables: Variables,
  timeout?: number,
): Promise<Target> {
  const main = locate(page, primary, variables);
  if (!fallback) return { locator: main, fallbackNote: null };
  const backup = locate(page, fallback, variables);
  try {
    await main.or(backup).first().waitFor({ state: 'attached', timeout });
  } catch {
    throw new Error(`neither ${describeSelector(primary)} nor its fallback ${describeSelector(fallback)} found an element`);
  }
  if ((await main.count()) > 0) return { locator: main, fallbackNote: null };
  return { locator: backup, fallbackNote: `${describeSelector(primary)} found nothing; used fallback ${describeSelector(fallback)}` };
}
