import { VisualUatReporter } from '../src/report/reporter';

export type { ReporterOptions } from '../src/report/reporter';
export default VisualUatReporter;
