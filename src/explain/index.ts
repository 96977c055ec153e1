export { explainChange, type ElementChange, type Explanation, type LayoutGap, type LayoutGaps, type PropertyChange } from './explain';
export type { Attribution } from './attribute';
