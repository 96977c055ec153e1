import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { FALLBACK_ANNOTATION, test } from '../../src/oxtest';
import { readCheckpoints } from '../../src/capture';

/**
 * Every oxtest command and selector strategy against a real page in a real Chromium. The page is
 * served by page.route under a made-up origin, so `navigate url=/form` goes through baseURL.
 */

const ORIGIN = 'http://oxtest.test';
// Checkpoints taken here land in a temporary output folder, not in the repository.
process.env.VISUAL_UAT_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'oxtest-commands-'));

const FORM = `<!doctype html><html><head><title>Oxtest form page</title></head><body>
<h1>Sign up</h1>
<ol id="clicks"></ol>
<input id="email" name="email" placeholder="Your email">
<input id="typed" name="typed" aria-label="Typed">
<label><input type="checkbox" id="terms" checked> Terms</label>
<select id="plan"><option value="free">Free</option><option value="pro">Pro plan</option></select>
<div id="hover-target" onmouseenter="this.textContent='hovered'">hover me</div>
<p id="hidden" style="display:none">secret</p>
<p class="price">$12</p>
<button class="css-button" onclick="mark('css')">By CSS</button>
<button onclick="mark('text')">Plain text button</button>
<button id="xp" onclick="mark('xpath')">By XPath</button>
<button data-testid="by-testid" onclick="mark('testid')">By test id</button>
<button onclick="mark('role')">Save draft</button>
<input placeholder="Search the docs" onfocus="mark('placeholder')">
<form id="send" onsubmit="event.preventDefault(); location.href='/done?email=' + encodeURIComponent(document.getElementById('email').value)"><button>Send</button></form>
<div id="keys"></div>
<script>
  function mark(name) { const li = document.createElement('li'); li.textContent = name; document.getElementById('clicks').append(li); }
  document.getElementById('typed').addEventListener('keydown', (e) => { if (e.key === 'Enter') document.getElementById('keys').textContent = 'enter:' + e.target.value; });
  document.addEventListener('keydown', (e) => { if (e.key === 'Escape') document.getElementById('keys').textContent = 'escape'; });
  setTimeout(() => { const p = document.createElement('p'); p.id = 'late'; p.textContent = 'arrived late'; document.body.append(p); }, 400);
</script></body></html>`;

const DONE = `<!doctype html><html><head><title>Thanks</title></head><body><h1>Thanks for signing up</h1></body></html>`;

let requests: string[];

test.use({ baseURL: ORIGIN });

test.beforeEach(async ({ page }) => {
  requests = [];
  await page.route(`${ORIGIN}/**`, (route) => {
    const url = new URL(route.request().url());
    requests.push(url.pathname);
    const body = url.pathname === '/form' ? FORM : url.pathname === '/done' ? DONE : null;
    return body ? route.fulfill({ contentType: 'text/html', body }) : route.fulfill({ status: 404, body: 'not found' });
  });
});

function script(name: string, text: string): string {
  const file = test.info().outputPath(`${name}.ox.test`);
  fs.writeFileSync(file, text);
  return file;
}

async function clicks(page: Page): Promise<string[]> {
  return page.locator('#clicks li').allTextContents();
}

test('form commands act on the page and assertions check it', async ({ page, oxtest }) => {
  await oxtest.run(
    script(
      'form',
      `# a whole sign-up flow
navigate url=/form
assertTitle text="Oxtest form page"
assertUrl pattern=/form$
waitForSelector css=#late
assertText css=#late text="arrived late"
assertHidden css=#hidden
assertVisible css=h1
fill css=#email value=ann@example.com
assertValue css=#email value=ann@example.com
type css=#typed value="hello there" delay=5
press css=#typed key=Enter
assertText css=#keys text="enter:hello there"
uncheck css=#terms
selectOption css=#plan value=pro
hover css=#hover-target
wait duration=50
`,
    ),
  );
  await expect(page.locator('#email')).toHaveValue('ann@example.com');
  await expect(page.locator('#keys')).toHaveText('enter:hello there');
  await expect(page.locator('#terms')).not.toBeChecked();
  await expect(page.locator('#plan')).toHaveValue('pro');
  await expect(page.locator('#hover-target')).toHaveText('hovered');

  await oxtest.run(
    script(
      'more',
      'check css=#terms\npress key=Escape\nassertText css=#keys text=escape\nclick css="#send button"\nassertUrl pattern=/done\\?email=ann\nassertTitle text=Thanks',
    ),
  );
  expect(page.url()).toBe(`${ORIGIN}/done?email=ann%40example.com`);
});

test('every selector strategy finds its element', async ({ page, oxtest }) => {
  await oxtest.run(
    script(
      'selectors',
      `navigate url=/form
click css=button.css-button
click text="Plain text button"
click xpath=//button[@id="xp"]
click testid=by-testid
click role=button name="Save draft"
click placeholder="Search the docs"
`,
    ),
  );
  expect(await clicks(page)).toEqual(['css', 'text', 'xpath', 'testid', 'role', 'placeholder']);
});

test('a fallback is used only when the primary finds nothing, and is reported', async ({ page, oxtest }) => {
  await oxtest.run(
    script(
      'fallback',
      `navigate url=/form
click css=button.renamed-class fallback=text="Plain text button"
click css=button.css-button fallback=text="Plain text button"
click css=#gone fallback=role=button name="Save draft"
`,
    ),
  );
  expect(await clicks(page)).toEqual(['text', 'css', 'role']);
  expect(
    test
      .info()
      .annotations.filter((a) => a.type === FALLBACK_ANNOTATION)
      .map((a) => a.description),
  ).toEqual([
    'css=button.renamed-class found nothing; used fallback text="Plain text button"',
    'css=#gone found nothing; used fallback role=button name="Save draft"',
  ]);
  const file = script('no-match', 'navigate url=/form\nclick css=#gone fallback=text=Nowhere timeout=500');
  await expect(oxtest.run(file)).rejects.toThrow(/no-match\.ox\.test:2: neither css=#gone nor its fallback text=Nowhere found an element/);
});

test('variables come from the environment, then set, then stored values', async ({ page, oxtest }) => {
  process.env.OXTEST_USER = 'env-user';
  process.env.OXTEST_SHADOWED = 'from-env';
  try {
    await oxtest.run(
      script(
        'variables',
        `navigate url=/form
set var=DOMAIN value=example.com
set var=OXTEST_SHADOWED value=from-set
getText css=.price store_as=price
fill css=#email value=\${OXTEST_USER}@\${DOMAIN}
fill css=#typed value="\${price} \${OXTEST_SHADOWED}"
log message="price is \${price}"
assertText css=.price text=\${price}
`,
      ),
    );
  } finally {
    delete process.env.OXTEST_USER;
    delete process.env.OXTEST_SHADOWED;
  }
  await expect(page.locator('#email')).toHaveValue('env-user@example.com');
  await expect(page.locator('#typed')).toHaveValue('$12 from-env');
});

test('an unresolved variable is an error naming it', async ({ oxtest }) => {
  const file = script('unresolved', 'navigate url=/form\nfill css=#email value=${NOBODY_SET_THIS}');
  await expect(oxtest.run(file)).rejects.toThrow(
    /unresolved\.ox\.test:2: unresolved variable \$\{NOBODY_SET_THIS\}: set it in the environment/,
  );
});

test('a parse error fails before any command runs', async ({ oxtest }) => {
  const file = script('broken', 'navigate url=/form\nclick css=button\nclik css=button\n');
  await expect(oxtest.run(file)).rejects.toThrow(/broken\.ox\.test:3: unknown command "clik"/);
  expect(requests).toEqual([]);
});

test('a failing command names its file and line', async ({ oxtest }) => {
  const file = script('failing', 'navigate url=/form\nassertText css=h1 text="Log in" timeout=300');
  await expect(oxtest.run(file)).rejects.toThrow(/failing\.ox\.test:2: .*toContainText/s);
});

// This suite is no visual-uat run (its config has no withVisualUat): a checkpoint here compares nothing, so it fails at its
// line. Checkpoints of scripts inside a run, of the page and of an element, are compared in oxtest.spec.ts.
test('checkpoint outside a visual-uat run fails at its script line, naming the fix', async ({ oxtest }) => {
  const file = script('checkpoint', 'navigate url=/form\ncheckpoint name=title css=h1 intent="The sign-up title"');
  await expect(oxtest.run(file)).rejects.toThrow(
    /checkpoint\.ox\.test:2: .*visual-uat: checkpoint "title" ran without withVisualUat, so nothing compared it: wrap the export of .* in withVisualUat/s,
  );
  expect(readCheckpoints(test.info().attachments).checkpoints).toEqual([]);
});
