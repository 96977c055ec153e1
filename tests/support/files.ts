import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Every file under a folder, recursively (symbolic links are not followed). */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

/** An empty git repository in a temporary folder (its real path), and a writer of files into it that returns each file's path. */
export function temporaryRepository(prefix: string): { root: string; write: (file: string, text: string) => string } {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  execFileSync('git', ['init', '-q'], { cwd: root });
  const write = (file: string, text: string): string => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
    return path.join(root, file);
  };
  return { root, write };
}

/** A feature test whose badge exists only on the branch: on the base it fails before its checkpoint. */
export const BADGE_SPEC = `import { test, expect } from 'visual-uat';
test('badge', async ({ page, screenshotCheckpoint }) => {
  await page.goto('/pricing');
  await expect(page.locator('.badge')).toBeVisible({ timeout: 1000 });
  await screenshotCheckpoint('badge', { locator: page.locator('.badge') });
});
`;
