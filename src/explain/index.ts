export { explainChange, type ElementChange, type Explanation, type PropertyChange } from './explain';
export type { Attribution } from './attribute';
