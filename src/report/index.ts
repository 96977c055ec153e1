export { VisualUatReporter, type ReporterOptions } from './reporter';
export type { RunResult, TestResultRecord, CheckpointResult, EvaluatorUsage } from './results';
