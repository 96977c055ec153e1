import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import type { ReviewModel } from './review-model';

/**
 * The review page: one HTML document with its data, its style and its script (review-client.ts)
 * inline (no framework, nothing fetched but the images, which load lazily as entries scroll into
 * view).
 */

const STYLE = `
:root { font-family: system-ui, sans-serif; color: #1b1f24; background: #f6f7f9; }
body { margin: 0; }
header.top { position: sticky; top: 0; z-index: 2; background: #14213d; color: #fff; padding: 10px 20px; display: flex; gap: 24px; align-items: baseline; flex-wrap: wrap; }
header.top h1 { font-size: 18px; margin: 0; }
header.top p { margin: 0; font-size: 13px; opacity: .85; }
main { max-width: 1400px; margin: 0 auto; padding: 16px 20px 80px; }
.empty { background: #fff; border: 1px solid #d0d7de; border-radius: 8px; padding: 32px; font-size: 16px; }
article { background: #fff; border: 1px solid #d0d7de; border-radius: 8px; margin: 0 0 16px; padding: 12px 16px; scroll-margin-top: 64px; content-visibility: auto; contain-intrinsic-size: auto 900px; }
article.current { outline: 3px solid #2a6df4; }
article h2 { font-size: 16px; margin: 0; display: flex; gap: 10px; align-items: center; flex-wrap: wrap; }
.status { font-size: 12px; font-weight: 600; padding: 2px 8px; border-radius: 10px; background: #eaeef2; }
.status.regression { background: #ffd7d5; color: #82071e; } .status.needs_review { background: #fff1c2; color: #7a4d00; } .status.unsteady { background: #ddf4ff; color: #0a3069; }
.status.changed { background: #d2f4dc; color: #116329; } .status.errored, .status.missing { background: #ffd7d5; color: #82071e; }
.reason { margin: 6px 0; white-space: pre-wrap; }
.explanation { margin: 6px 0; padding-left: 20px; font-family: ui-monospace, monospace; font-size: 13px; }
.actions { display: flex; gap: 8px; align-items: center; margin: 8px 0; flex-wrap: wrap; }
.actions button { font-size: 14px; padding: 6px 14px; border-radius: 6px; border: 1px solid #8c959f; background: #f6f8fa; cursor: pointer; }
.actions button.approve { background: #1f883d; color: #fff; border-color: #1a7f37; }
.actions button.reject { background: #cf222e; color: #fff; border-color: #a40e26; }
.actions input { flex: 1; min-width: 160px; max-width: 420px; padding: 5px 8px; }
.decision { font-weight: 600; } .decision.approved { color: #116329; } .decision.rejected { color: #82071e; }
.members { margin: 6px 0; padding: 0; list-style: none; display: flex; flex-wrap: wrap; gap: 6px; }
.members button { font-size: 12px; border: 1px solid #d0d7de; background: #fff; border-radius: 6px; padding: 3px 8px; cursor: pointer; }
.members button[aria-pressed=true] { background: #ddf4ff; border-color: #2a6df4; }
.views { display: flex; gap: 4px; margin: 8px 0; }
.views button { font-size: 13px; border: 1px solid #d0d7de; background: #fff; padding: 4px 10px; cursor: pointer; }
.views button[aria-pressed=true] { background: #14213d; color: #fff; }
.images { display: flex; gap: 12px; align-items: flex-start; }
.scroller { max-height: 520px; overflow: auto; position: relative; }
.region { position: absolute; outline: 2px solid #d4a72c; outline-offset: 1px; pointer-events: none; }
.region.unexplained { outline: 2px dashed #cf222e; outline-offset: 4px; }
.images figure { margin: 0; flex: 1; min-width: 0; }
.images figcaption { font-size: 12px; color: #57606a; margin-bottom: 4px; }
.images img { max-width: 100%; border: 1px solid #d0d7de; display: block; }
.stack { position: relative; display: inline-block; max-width: 100%; }
.stack img { display: block; max-width: 100%; border: 1px solid #d0d7de; }
.stack img.top { position: absolute; left: 0; top: 0; }
.range { display: flex; gap: 8px; align-items: center; font-size: 12px; margin: 6px 0; }
details { margin: 6px 0; } pre { background: #f6f8fa; padding: 8px; overflow: auto; max-height: 320px; font-size: 12px; }
.signals li { font-size: 13px; }
.help { font-size: 12px; opacity: .85; }
kbd { border: 1px solid #8c959f; border-radius: 3px; padding: 0 4px; font-size: 11px; background: #fff; color: #1b1f24; }
`;

/**
 * The page's script: review-client.ts as the build compiled it, next to this module in dist. Run
 * from the sources (the unit tests), it is compiled here, the same way.
 */
function clientScript(): string {
  const compiled = path.join(__dirname, 'review-client.js');
  if (fs.existsSync(compiled)) return fs.readFileSync(compiled, 'utf8');
  const source = fs.readFileSync(path.join(__dirname, 'review-client.ts'), 'utf8');
  return ts.transpileModule(source, { compilerOptions: { target: ts.ScriptTarget.ES2022, strict: true } }).outputText;
}

let script: string | null = null;

/** JSON inside a script element: `<` escaped, so no string in it can close the element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

export function reviewPage(model: ReviewModel, nonce: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>visual-uat review</title>
<style>${STYLE}</style></head>
<body><header class="top"><h1>visual-uat review</h1></header><main></main>
<script type="application/json" id="review-data">${scriptJson(model)}</script>
<script nonce="${nonce}">${(script ??= clientScript())}</script>
</body></html>
`;
}
