import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { APPROVALS_FILE, ApprovalsFileError, readApprovals, writeApprovals, type Approval } from '../../../src/files/approvals-file';

/**
 * The approvals file is read whole or not at all: its top level, its version and every entry are
 * checked against docs/approvals.schema.json, and a file that does not match is refused with one
 * line naming it, what is wrong and the fix, never read as no decisions.
 */

const FIELDS = {
  scope: 'change',
  checkpoints: [{ test: 'site.spec.ts › site › about', checkpoint: 'contact', baseline: null, current: null }],
  by: 'Ann',
  at: '2026-01-02T00:00:00Z',
  reason: 'the button lost its border',
  change: 'v1 t0.1 m10x10c5:aaaa',
} satisfies Omit<Approval, 'decision'>;
const DECISION: Approval = { decision: 'rejected', ...FIELDS };
/** DECISION as the file holds it: whether it approves or rejects under "verdict", the key every visual-uat version reads. */
const STORED = { verdict: 'rejected', ...FIELDS };

let dir: string;
let file: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-approvals-file-'));
  file = path.join(dir, APPROVALS_FILE);
});

function refusal(content: string): string {
  fs.writeFileSync(file, content);
  try {
    readApprovals(dir);
  } catch (error) {
    expect(error).toBeInstanceOf(ApprovalsFileError);
    const message = (error as Error).message;
    expect(message.split('\n')).toHaveLength(1);
    return message;
  }
  throw new Error(`read ${content} without a word`);
}

const TOP_LEVEL_FIX =
  ': fix it to {"version": 2, "approvals": [...]} as visual-uat\'s docs/approvals.schema.json describes, or restore it from git';

describe('readApprovals', () => {
  it('refuses a file whose "approvals" is misspelt, naming the key it found', () => {
    expect(refusal(JSON.stringify({ version: 2, aprovals: [STORED] }))).toBe(
      `visual-uat: ${file}: "approvals" is missing (found "aprovals")${TOP_LEVEL_FIX}`,
    );
  });

  it('refuses a bare array', () => {
    expect(refusal(JSON.stringify([STORED]))).toBe(`visual-uat: ${file}: the top level is an array, not an object${TOP_LEVEL_FIX}`);
  });

  it('refuses an object under "approvals"', () => {
    expect(refusal('{"version":2,"approvals":{}}')).toBe(`visual-uat: ${file}: approvals is an object, not an array${TOP_LEVEL_FIX}`);
  });

  it('refuses null', () => {
    expect(refusal('null')).toBe(`visual-uat: ${file}: the top level is null, not an object${TOP_LEVEL_FIX}`);
  });

  it('refuses a file without a version', () => {
    expect(refusal(JSON.stringify({ approvals: [STORED] }))).toBe(`visual-uat: ${file}: "version" is missing${TOP_LEVEL_FIX}`);
  });

  it('refuses an unknown field at the top level: a write would drop it', () => {
    expect(refusal(JSON.stringify({ version: 2, approvals: [STORED], reviewers: ['Ann'] }))).toBe(
      `visual-uat: ${file}: the top level has an unknown field "reviewers"${TOP_LEVEL_FIX}`,
    );
  });

  it('refuses an unknown field in an entry and in a checkpoint of one', () => {
    expect(refusal(JSON.stringify({ version: 2, approvals: [STORED, { ...STORED, ticket: 'UI-12' }] }))).toMatch(
      new RegExp(
        `^visual-uat: entry 2 of ${file} is not an approval \\(the entry has an unknown field "ticket": \\{.*\\): fix or delete it$`,
      ),
    );
    const checkpoints = [{ ...DECISION.checkpoints[0], note: 'x' }];
    expect(refusal(JSON.stringify({ version: 2, approvals: [{ ...STORED, checkpoints }] }))).toMatch(
      /^visual-uat: entry 1 of .* is not an approval \(checkpoints\.0 has an unknown field "note": /,
    );
  });

  it('names the field of a broken entry and the value it holds', () => {
    expect(refusal(JSON.stringify({ version: 2, approvals: [STORED, { ...STORED, scope: 'everywhere' }] }))).toMatch(
      new RegExp(
        `^visual-uat: entry 2 of ${file} is not an approval \\(scope must be "change" or "checkpoints" \\(got "everywhere"\\): .*\\): fix or delete it$`,
      ),
    );
    expect(refusal(JSON.stringify({ version: 2, approvals: [{ ...STORED, reason: 5 }] }))).toMatch(
      /entry 1 of .* is not an approval \(reason is a number, not a string or null: /,
    );
    expect(refusal(JSON.stringify({ version: 2, approvals: [{ verdict: 'approved' }] }))).toMatch(
      /entry 1 of .* is not an approval \("scope" is missing: /,
    );
  });

  it('refuses a version it does not read, before looking at entries it would not understand', () => {
    expect(refusal(JSON.stringify({ version: 4, approvals: [{ decision: 'ok' }] }))).toBe(
      `visual-uat: ${file}: version 4 is not one this visual-uat reads (2 or 3): upgrade visual-uat if a newer one wrote it, else restore the file from git`,
    );
  });

  it('refuses a file that is not JSON, with the fix for a merge conflict or for a file cut short', () => {
    expect(refusal('{"version": 2, "approvals": [\n<<<<<<< HEAD')).toMatch(
      /^visual-uat: .* is not valid JSON \(.*\): resolve the merge conflict \(keep the entries of both sides\) or delete the broken entry$/,
    );
    expect(refusal('{"version": 3, "approvals": [{"decision": "approved", "test": "index.spec.ts › home')).toMatch(
      /^visual-uat: .* is not valid JSON \(Unterminated string in JSON at position \d+.*\): restore it from git \(git checkout -- visual-uat\.approvals\.json\) or fix the JSON$/,
    );
  });

  it('reads a file of version 2 as it was written, its kind of decision under "verdict" on disk', () => {
    writeApprovals(dir, [DECISION]);
    expect(readApprovals(dir)).toEqual([DECISION]);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ version: 2, approvals: [STORED] });
    fs.writeFileSync(file, JSON.stringify({ version: 2, approvals: [{ ...STORED, verdict: 'approved' }] }));
    expect(readApprovals(dir)).toEqual([{ ...DECISION, decision: 'approved' }]);
  });

  it('writes version 3 only when a decision keeps what each project showed, and reads it back', () => {
    const acrossProjects: Approval = { ...DECISION, projects: { desktop: 'v1 t0.1 m10x10c5:aaaa', mobile: 'v1 t0.1 m4x10c5:bbbb' } };
    writeApprovals(dir, [DECISION, acrossProjects]);
    expect(readApprovals(dir)).toEqual([DECISION, acrossProjects]);
    const written = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(written.version).toBe(3);
    expect(Object.keys(written.approvals[1]).at(-1)).toBe('projects');
    expect(refusal(JSON.stringify({ version: 3, approvals: [{ ...STORED, projects: { mobile: 5 } }] }))).toMatch(
      /entry 1 of .* is not an approval \(projects\.mobile is a number, not a string: /,
    );
  });

  it('reads no file as no decisions', () => {
    expect(readApprovals(dir)).toEqual([]);
  });
});
