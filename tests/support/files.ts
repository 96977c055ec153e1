import fs from 'node:fs';
import path from 'node:path';

/** Every file under a folder, recursively (symbolic links are not followed). */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

/** A feature test whose badge exists only on the branch: on the base it fails before its checkpoint. */
export const BADGE_SPEC = `import { test, expect } from 'visual-uat';
test('badge', async ({ page, screenshotCheckpoint }) => {
  await page.goto('/pricing');
  await expect(page.locator('.badge')).toBeVisible({ timeout: 1000 });
  await screenshotCheckpoint('badge', { locator: page.locator('.badge') });
});
`;
