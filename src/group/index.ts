export { groupChanges, type ChangeGroup, type Grouping } from './group';
