import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { codeChanges, openRepo } from '../../../src/git';
import type { CodeChange } from '../../../src/git/code-change';

/** Each file's text; null: the commit deletes it. */
export type Files = Record<string, string | null>;

/** A repository with `base` on main and one commit per entry of `commits` on a feature branch; what `codeChanges` reads of it. */
export async function branch(base: Files, commits: { subject: string; files: Files }[]): Promise<CodeChange[]> {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-attribute-')));
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, encoding: 'utf8' }).trim();
  const write = (files: Files) => {
    for (const [file, text] of Object.entries(files)) {
      if (text === null) {
        fs.rmSync(path.join(dir, file));
        continue;
      }
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
  };
  git('init', '-q', '-b', 'main');
  write(base);
  git('add', '-A');
  git('commit', '-qm', 'base');
  const baseCommit = git('rev-parse', 'HEAD');
  git('checkout', '-qb', 'feature');
  for (const commit of commits) {
    write(commit.files);
    git('add', '-A');
    git('commit', '-qm', commit.subject);
  }
  const files = [...new Set(commits.flatMap((commit) => Object.keys(commit.files)))];
  return codeChanges(await openRepo(dir), baseCommit, files);
}
