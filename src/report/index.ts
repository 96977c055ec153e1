export { VisualUatReporter, type ReporterOptions } from './reporter';
export type { RunResult, TestResultRecord, CheckpointResult, GroupRecord, EvaluatorUsage } from './results';
