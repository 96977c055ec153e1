import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { reviewPage } from '../../../src/cli/review-page';
import type { ReviewModel } from '../../../src/cli/review-model';

const MODEL: ReviewModel = { run: null, message: 'No run yet: run the tests first (</script> stays text)', entries: [] };

function inlineScripts(page: string): { attributes: string; body: string }[] {
  return [...page.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)].map((match) => ({ attributes: match[1], body: match[2] }));
}

describe('the review page', () => {
  it('runs one script, under the nonce the CSP names, and its data as JSON no string can close', () => {
    const scripts = inlineScripts(reviewPage(MODEL, 'n0nce'));
    expect(scripts.map((script) => script.attributes)).toEqual([' type="application/json" id="review-data"', ' nonce="n0nce"']);
    expect(JSON.parse(scripts[0].body)).toEqual(MODEL);
  });

  it('inlines review-client.ts compiled to a plain browser script: no module system, valid JavaScript', () => {
    const [, client] = inlineScripts(reviewPage(MODEL, 'n0nce'));
    expect(client.body).toContain('function reviewClient()');
    expect(client.body).not.toMatch(/\bexports\b|\brequire\(|^\s*(import|export)\b/m);
    expect(() => new Function(client.body)).not.toThrow();
  });

  it("keeps review-client.ts a script, whose names stay out of the program's global scope", () => {
    const file = path.resolve(__dirname, '..', '..', '..', 'src', 'cli', 'review-client.ts');
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    expect(ts.isExternalModule(source)).toBe(false);
    expect(source.statements.map((statement) => ts.SyntaxKind[statement.kind])).toEqual(['ExpressionStatement']);
  });
});
