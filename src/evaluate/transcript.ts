import type { Evaluation } from '../types';
import { transcriptFile } from '../config/paths';
import { writeFileAtomic } from '../util/fs';
import type { Attempt } from './call';
import type { TokenCounts } from './prices';

/** One evaluation as it happened: what was asked, every attempt's raw answer, what it cost. */
export interface Transcript {
  checkpoint: string;
  model: string;
  baseURL: string | null;
  cacheKey: string;
  /** The prompt; images by path with the part of them that was sent, never inlined. */
  prompt: {
    system: string;
    user: string;
    images: { baseline: string; current: string; diff: string };
    view: string;
  };
  attempts: Attempt[];
  /** The parse error fed back to the model for its one repair, if there was one. */
  repair: string | null;
  usage: TokenCounts & { calls: number; costUSD: number };
  latencyMs: number;
  evaluation: Evaluation | null;
  error: string | null;
}

/** Named by the cache key, so a re-run of the same pair rewrites its transcript instead of piling up. */
export function writeTranscript(outputDir: string, transcript: Transcript, redact: (text: string) => string): string {
  const file = transcriptFile(outputDir, transcript.cacheKey, transcript.checkpoint);
  writeFileAtomic(file, redact(`${JSON.stringify(transcript, null, 2)}\n`));
  return file;
}

/** Removes the API key from anything about to be written or printed (error bodies can echo it). */
export function redactor(secret: string): (text: string) => string {
  // Also its JSON-escaped form, for text that is already serialised.
  const forms = [...new Set([secret, JSON.stringify(secret).slice(1, -1)])];
  return (text) => forms.reduce((out, form) => out.split(form).join('[redacted]'), text);
}
