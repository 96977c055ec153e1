export { groupChanges, type ChangeGroup, type Grouping, type Seen } from './group';
export { elementKey, partExplanation } from './causes';
