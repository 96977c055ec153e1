import type OpenAI from 'openai';
import { EvaluatorConfigError } from './evaluator-settings';

/**
 * openai is an optional peer dependency (as @axe-core/playwright is): a project that configures no
 * evaluator installs nothing for it. Loaded on the first model client, so a run without one never
 * reads it; a project that configures one without the package is told the command that adds it.
 */
export function loadOpenAI(): typeof OpenAI {
  try {
    // A synchronous require: the client is made where a run's settings are resolved, which is not async.
    return (require('openai') as { default: typeof OpenAI }).default;
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND' && (error as Error).message.includes("'openai'");
    if (!missing) throw error;
    throw new EvaluatorConfigError('visual-uat: a model needs the openai package, which is not installed: npm install -D openai');
  }
}
