export { generate, type GenerateOptions, type JobResult, type JobOutcome } from './generate';
export { readSpec, type GenerateSpec, type GenerateJob } from './spec';
