import { expect, type Locator, type Page } from '@playwright/test';
import type { OxCommand } from './parser';
import { resolveTarget } from './selectors';
import { resolveText, type Variables } from './variables';
import { escapeRegExp } from '../util/text';

/** What a command needs besides the page: variables, and where checkpoints, notes and logs go. */
export interface OxContext {
  page: Page;
  variables: Variables;
  checkpoint(name: string, locator: Locator | undefined, intent: string | undefined): Promise<void>;
  /** A fallback selector was used. */
  note(message: string): void;
  log(message: string): void;
}

/** Runs one parsed command. Errors are Playwright's own (with its call log), or one line naming the problem. */
export async function executeCommand(cmd: OxCommand, ctx: OxContext): Promise<void> {
  const { page, variables } = ctx;
  const param = (key: string): string => resolveText(cmd.params[key], variables);
  const timeout = cmd.params.timeout === undefined ? undefined : Number(cmd.params.timeout);
  const target = async (): Promise<Locator | undefined> => {
    if (!cmd.selector) return undefined;
    const found = await resolveTarget(page, cmd.selector, cmd.fallback, variables, timeout);
    if (found.fallbackNote) ctx.note(found.fallbackNote);
    return found.locator;
  };
  const element = async (): Promise<Locator> => (await target())!;

  switch (cmd.command) {
    case 'navigate':
      // Relative URLs resolve against the project's baseURL, as page.goto does.
      await page.goto(param('url'));
      return;
    case 'click':
      return (await element()).click({ timeout });
    case 'fill':
      return (await element()).fill(param('value'), { timeout });
    case 'type':
      return (await element()).pressSequentially(param('value'), {
        timeout,
        delay: cmd.params.delay === undefined ? undefined : Number(cmd.params.delay),
      });
    case 'press': {
      const locator = await target();
      return locator ? locator.press(param('key'), { timeout }) : page.keyboard.press(param('key'));
    }
    case 'check':
      return (await element()).check({ timeout });
    case 'uncheck':
      return (await element()).uncheck({ timeout });
    case 'selectOption':
      await (await element()).selectOption(param('value'), { timeout });
      return;
    case 'hover':
      return (await element()).hover({ timeout });
    case 'wait':
      return page.waitForTimeout(Number(cmd.params.duration));
    case 'waitForSelector':
      return (await element()).waitFor({ state: (cmd.params.state ?? 'visible') as 'visible', timeout });
    case 'assertVisible':
      return expect(await element()).toBeVisible({ timeout });
    case 'assertHidden':
      return expect(await element()).toBeHidden({ timeout });
    case 'assertText':
      return expect(await element()).toContainText(param('text'), { timeout });
    case 'assertValue':
      return expect(await element()).toHaveValue(param('value'), { timeout });
    case 'assertUrl':
      return expect(page).toHaveURL(new RegExp(param('pattern')), { timeout });
    case 'assertTitle':
      return expect(page).toHaveTitle(new RegExp(escapeRegExp(param('text'))), { timeout });
    case 'getText': {
      const text = (await (await element()).innerText({ timeout })).trim();
      variables.stored.set(cmd.params.store_as, text);
      return;
    }
    case 'set':
      variables.set.set(cmd.params.var, param('value'));
      return;
    case 'log':
      ctx.log(param('message'));
      return;
    case 'checkpoint':
      return ctx.checkpoint(param('name'), await target(), cmd.params.intent === undefined ? undefined : param('intent'));
  }
}
