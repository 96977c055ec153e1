export { groupChanges, type ChangeGroup, type Grouping, type Seen } from './group';
