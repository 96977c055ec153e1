import type { Evaluation } from '../types';
import { plainText } from '../util/text';

export type Parsed = { ok: true; evaluation: Evaluation } | { ok: false; error: string };

/**
 * The first balanced `{…}` in a reply: models without structured output wrap their JSON in prose
 * or code fences. Braces inside strings are skipped.
 */
export function extractJsonObject(text: string): string | null {
  const start = text.indexOf('{');
  if (start < 0) return null;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return text.slice(start, i + 1);
  }
  return null;
}

function check(value: unknown): Parsed {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, error: 'the reply is not a JSON object' };
  const v = value as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof v.pass !== 'boolean') problems.push('"pass" must be true or false');
  if (typeof v.confidence !== 'number' || !Number.isFinite(v.confidence) || v.confidence < 0 || v.confidence > 1)
    problems.push('"confidence" must be a number from 0 to 1');
  if (typeof v.needsReview !== 'boolean') problems.push('"needsReview" must be true or false');
  if (typeof v.reason !== 'string' || !v.reason.trim()) problems.push('"reason" must be a non-empty string');
  if (problems.length) return { ok: false, error: `the JSON does not match the schema: ${problems.join('; ')}` };
  return {
    ok: true,
    evaluation: {
      pass: v.pass as boolean,
      confidence: v.confidence as number,
      reason: plainText(v.reason as string).trim(),
      needsReview: v.needsReview as boolean,
    },
  };
}

/** The model's reply as an Evaluation, or what is wrong with it (fed back for one repair). */
export function parseVerdict(content: string | null | undefined): Parsed {
  if (!content?.trim()) return { ok: false, error: 'the reply was empty' };
  const json = extractJsonObject(content);
  if (!json) return { ok: false, error: 'the reply contains no JSON object' };
  try {
    return check(JSON.parse(json));
  } catch (error) {
    return { ok: false, error: `the reply is not valid JSON (${(error as Error).message})` };
  }
}
