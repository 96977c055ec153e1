export {
  explainChange,
  type ElementChange,
  type Explanation,
  type LayoutGap,
  type InteractionSides,
  type LayoutGaps,
  type PageOrigins,
  type PropertyChange,
} from './explain';
export { unexplainedWords } from './regions';
export { alikeLines, summaryOf } from './summary';
export type { Attribution } from './attribute';
export { interactionOnly } from './unsteady';
