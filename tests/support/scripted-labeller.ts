import type { LabelledCase } from '../../src/approve';
import { reply, userTextOf, type Responder } from './fake-openai';

/**
 * A scripted model for `visual-uat eval`: it recognises each labelled case by its first commit
 * line in the prompt and answers as the person did (pass for intended, fail for a regression),
 * except for the cases it is told to get wrong. A prompt it cannot place gets a hedged answer.
 */
export interface Script {
  /** Regressions it approves, at this confidence. */
  approve?: Record<string, number>;
  /** Intended changes it leaves for review. */
  hedge?: string[];
  /** Cases it answers with an HTTP 400 (a final error that does not stop the run: not judged). */
  fail?: string[];
}

export function scriptedLabeller(cases: LabelledCase[], script: Script = {}): Responder {
  return (request) => {
    const text = userTextOf(request);
    const labelled = cases.find((c) => c.change && text.includes(`- ${c.change.commits[0]}\n`));
    if (!labelled) return reply.verdict({ pass: true, confidence: 0.5, needsReview: true, reason: 'Cannot place this checkpoint.' });
    if (script.fail?.includes(labelled.id)) return reply.error(400, {}, 'the image could not be decoded');
    const wrongConfidence = script.approve?.[labelled.id];
    if (wrongConfidence !== undefined)
      return reply.verdict({ pass: true, confidence: wrongConfidence, reason: `Looks intended (${labelled.id}).` });
    if (script.hedge?.includes(labelled.id))
      return reply.verdict({ pass: true, confidence: 0.6, needsReview: true, reason: `Not sure (${labelled.id}).` });
    return labelled.label === 'intended'
      ? reply.verdict({ pass: true, confidence: 0.95, reason: `Matches the intent (${labelled.id}).` })
      : reply.verdict({ pass: false, confidence: 0.9, reason: `Broken layout (${labelled.id}).` });
  };
}
