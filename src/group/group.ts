import { sameRegion, type ChangePrint, type RegionPrint } from '../compare';
import type { Explanation } from '../explain';
import type { Region } from '../types';
import { partCauses } from './causes';
import { wordsKey } from './words';

/**
 * One change across the run's checkpoints, as a person sees it. The regions of all changed
 * checkpoints are sorted into classes of the same region (the fingerprint's tolerance rule), the
 * ARIA lines into classes of the same line; a checkpoint's picture is the set of its classes. A
 * picture is one change unless its parts are seen apart: the pictures seen whole on most
 * checkpoints claim their classes first, and what a picture has beyond the classes claimed before
 * it is a change of its own. A footer restyle cut into a strip and two text boxes on four footer
 * captures is one change; the full home page that shows its text boxes and a banner shows two
 * (the footer's, and the banner). A header whose logo and navigation both changed on 40 pages is
 * one change; a banner one of those pages also got is another, on that page alone. There are never
 * more changes than changed checkpoints.
 *
 * Across Playwright projects the pixels differ (a header at 1280 px and at 390 px) while the words
 * do not: changes whose checkpoints' words match (wordsKey: the same elements, property changes and
 * causes, every changed region accounted for) and that are seen in more than one project are one
 * change. Where the words do not account for a checkpoint's whole change, or it shows more than
 * one change, its pixels alone group it, as within a project.
 *
 * One edit is one change: changes whose every checkpoint's words put them down to the same cause
 * (file, commit and line) are one, across checkpoints, tests and projects, whatever their pixels
 * and other words (a token recolouring a header on one page and a button on another). A change put
 * down to two causes is in each one's group, unless the two always come together (two lines of
 * one commit's rule): those are one edit.
 */
export interface ChangeGroup {
  /** `g1`, `g2`, …: the change on most checkpoints first. */
  id: string;
  /** The change's regions and lines as its representative shows them. */
  change: ChangePrint;
  /** The checkpoint (index in the input) shown to the evaluator: one with this change alone when there is one. */
  representative: number;
  /** Checkpoints whose dominant change (the largest area) this is. */
  members: number[];
  /** Checkpoints where it is one of several changes, not the largest. */
  alsoIn: number[];
  /**
   * The change as each Playwright project that shows it shows it (its checkpoint there with this change alone, when there is one), in the
   * order of their first checkpoints.
   */
  projects: Map<string, ChangePrint>;
}

/** Where a checkpoint's change was seen, and what its words say. */
export interface Seen {
  project: string;
  explanation: Explanation | null;
  /** Its changed regions (diffMetrics'), which the words' region indexes name; absent: its causes are not read. */
  regions?: readonly Region[];
}

export interface Grouping {
  groups: ChangeGroup[];
  /** For each input, its groups, dominant first; empty for an input without a change. */
  groupsOf: string[][];
  /** For each input, the part of its change in each of its groups (the same region objects as its change's). */
  partsOf: Map<string, ChangePrint>[];
}

interface Occurrence {
  input: number;
  region: RegionPrint | null;
  line: string | null;
}

interface RegionClass {
  print: RegionPrint;
  threshold: number;
  occurrences: Occurrence[];
}

/** A class per distinct region (under tolerance) and per distinct line. */
function classify(changes: (ChangePrint | null)[]): Occurrence[][] {
  const regionClasses: RegionClass[] = [];
  const lineClasses = new Map<string, Occurrence[]>();
  changes.forEach((change, input) => {
    if (!change) return;
    for (const region of change.regions) {
      const occurrence = { input, region, line: null };
      const found = regionClasses.find((c) => sameRegion(c.print, region, Math.min(c.threshold, change.threshold)));
      if (found) found.occurrences.push(occurrence);
      else regionClasses.push({ print: region, threshold: change.threshold, occurrences: [occurrence] });
    }
    for (const line of change.lines) {
      const occurrences = lineClasses.get(line) ?? [];
      occurrences.push({ input, region: null, line });
      lineClasses.set(line, occurrences);
    }
  });
  return [...regionClasses.map((c) => c.occurrences), ...lineClasses.values()];
}

interface Change {
  inputs: number[];
  /** Per input, the part of its change that is this change. */
  parts: Map<number, ChangePrint>;
}

function area(change: ChangePrint): number {
  return change.regions.reduce((sum, region) => sum + region.width * region.height, 0);
}

/** A distinct set of classes, and the checkpoints whose change is exactly it. */
interface Picture {
  classes: number[];
  inputs: number[];
}

function picturesOf(changes: (ChangePrint | null)[], classes: Occurrence[][]): Picture[] {
  const classesOf = changes.map((): number[] => []);
  classes.forEach((occurrences, c) => {
    for (const input of new Set(occurrences.map((o) => o.input))) classesOf[input].push(c);
  });
  const pictures = new Map<string, Picture>();
  classesOf.forEach((own, input) => {
    if (own.length === 0) return;
    const key = own.join(',');
    const picture = pictures.get(key) ?? { classes: own, inputs: [] };
    picture.inputs.push(input);
    pictures.set(key, picture);
  });
  return [...pictures.values()];
}

/**
 * Which classes make one change: each picture in turn claims the classes no picture claimed
 * before it. Pictures go by how many checkpoints show them whole (a picture contained in another
 * goes before it, so the other splits there), then fewest classes, then first checkpoint.
 */
function claim(pictures: Picture[]): number[][] {
  const contains = (outer: Picture, inner: Picture) => inner.classes.every((c) => outer.classes.includes(c));
  const support = new Map(pictures.map((p) => [p, pictures.filter((q) => contains(q, p)).reduce((sum, q) => sum + q.inputs.length, 0)]));
  const ordered = [...pictures].sort(
    (a, b) => support.get(b)! - support.get(a)! || a.classes.length - b.classes.length || a.inputs[0] - b.inputs[0],
  );
  const claimed = new Set<number>();
  const sets: number[][] = [];
  for (const picture of ordered) {
    const own = picture.classes.filter((c) => !claimed.has(c));
    own.forEach((c) => claimed.add(c));
    if (own.length) sets.push(own);
  }
  return sets;
}

/** The run's changes: claimed sets of classes, each with its part on every checkpoint that shows any of it. */
function changesOf(changes: (ChangePrint | null)[]): Change[] {
  const classes = classify(changes);
  const found: Change[] = claim(picturesOf(changes, classes)).map((set) => {
    const change: Change = { inputs: [], parts: new Map() };
    for (const { input, region, line } of set.flatMap((c) => classes[c])) {
      const part = change.parts.get(input) ?? { threshold: changes[input]!.threshold, regions: [], lines: [] };
      if (region) part.regions.push(region);
      if (line) part.lines.push(line);
      change.parts.set(input, part);
    }
    change.inputs = [...change.parts.keys()].sort((a, b) => a - b);
    return change;
  });
  // A changed pair whose fingerprint is empty (nothing to tell apart) is a change of its own.
  changes.forEach((change, input) => {
    if (change && change.regions.length === 0 && change.lines.length === 0)
      found.push({ inputs: [input], parts: new Map([[input, change]]) });
  });
  for (const change of found)
    for (const part of change.parts.values()) {
      part.regions.sort((a, b) => b.width * b.height - a.width * a.height);
      part.lines.sort();
    }
  return found;
}

/**
 * The changes the words make one across projects. A change's words are those of the checkpoints
 * that show it alone (one that shows another change too has words for both), when there is one
 * and they all say the same; changes with the same words merge when they span more than one
 * project. A checkpoint showing more than one change keeps its part by pixels, as within a project.
 */
function mergedByWords(found: Change[], changes: (ChangePrint | null)[], seen: Seen[]): Change[] {
  const keyOf = (change: Change): string | null => {
    const alone = change.inputs.filter((input) => !found.some((other) => other !== change && other.parts.has(input)));
    const keys = alone.map((input) => wordsKey(seen[input].explanation, changes[input]!));
    return keys.length > 0 && keys.every((key) => key !== null && key === keys[0]) ? keys[0] : null;
  };
  const byKey = new Map<string, Change[]>();
  const merged: Change[] = [];
  for (const change of found) {
    const key = keyOf(change);
    if (key === null) merged.push(change);
    else byKey.set(key, [...(byKey.get(key) ?? []), change]);
  }
  for (const alike of byKey.values()) {
    const projects = new Set(alike.flatMap((change) => change.inputs.map((input) => seen[input].project)));
    if (projects.size < 2) merged.push(...alike);
    else
      merged.push({
        inputs: alike.flatMap((change) => change.inputs).sort((a, b) => a - b),
        parts: new Map(alike.flatMap((change) => [...change.parts])),
      });
  }
  return merged;
}

/** One change made of several: every checkpoint's parts together, its regions largest first. */
function joined(changes: Change[]): Change {
  if (changes.length === 1) return changes[0];
  const parts = new Map<number, ChangePrint>();
  for (const change of changes)
    for (const [input, part] of change.parts) {
      const had = parts.get(input);
      if (!had) parts.set(input, part);
      else
        parts.set(input, {
          threshold: had.threshold,
          regions: [...new Set([...had.regions, ...part.regions])].sort((a, b) => b.width * b.height - a.width * a.height),
          lines: [...new Set([...had.lines, ...part.lines])].sort(),
        });
    }
  return { inputs: [...parts.keys()].sort((a, b) => a - b), parts };
}

/**
 * The changes one edit made, one each. A change's causes are those every checkpoint's part of it
 * is put down to (by the regions an element with a cause meets: a region none meets goes with
 * them); causes shared by the same changes are one edit, and one whose changes are all another
 * edit's is part of that one. A change without causes stays as it is.
 */
function mergedByCause(found: Change[], changes: (ChangePrint | null)[], seen: Seen[]): Change[] {
  const causesOf = (change: Change): string[] => {
    // A part of ARIA lines alone (a page whose snapshot holds the header's changed links) has no region to read a cause from: the
    // checkpoints that show the change's pixels decide.
    const each = change.inputs
      .filter((input) => change.parts.get(input)!.regions.length > 0)
      .map((input) => partCauses(change.parts.get(input)!, changes[input]!, seen[input].explanation, seen[input].regions));
    if (each.length === 0 || each.some((causes) => causes === null)) return [];
    return [...each[0]!].filter((cause) => each.every((causes) => causes!.has(cause)));
  };
  const byCause = new Map<string, number[]>();
  const uncaused: Change[] = [];
  found.forEach((change, i) => {
    const causes = causesOf(change);
    if (causes.length === 0) uncaused.push(change);
    for (const cause of causes) byCause.set(cause, [...(byCause.get(cause) ?? []), i]);
  });
  const edits = [...new Map([...byCause.values()].map((members) => [members.join(','), members])).values()];
  // An edit whose changes all belong to a larger edit (a region two edits meet) is already there: no group of its own.
  const kept = edits.filter((members) => !edits.some((other) => other.length > members.length && members.every((i) => other.includes(i))));
  return [...uncaused, ...kept.map((members) => joined(members.map((i) => found[i])))];
}

const NOT_SEEN: Seen = { project: '', explanation: null };

/**
 * Groups the run's changes. `changes` holds each checkpoint's change (null: not a changed pair),
 * in a stable order (the results' order), which decides ties; `seen`, each one's project and
 * words (none: one project, pixels alone).
 */
export function groupChanges(changes: (ChangePrint | null)[], seen: Seen[] = changes.map(() => NOT_SEEN)): Grouping {
  const found = mergedByCause(mergedByWords(changesOf(changes), changes, seen), changes, seen);
  const changesOfInput = changes.map((_, input) => found.filter((change) => change.parts.has(input)));
  const dominant = (input: number): Change =>
    changesOfInput[input].reduce((best, change) => {
      const [a, b] = [area(change.parts.get(input)!), area(best.parts.get(input)!)];
      return a > b || (a === b && change.inputs.length > best.inputs.length) ? change : best;
    });
  const representativeOf = (change: Change, inputs = change.inputs): number =>
    inputs.reduce((best, input) => (changesOfInput[input].length < changesOfInput[best].length ? input : best));
  const projectsOf = (change: Change): Map<string, ChangePrint> => {
    const names = [...new Set(change.inputs.map((input) => seen[input].project))];
    return new Map(
      names.map((name) => [
        name,
        change.parts.get(
          representativeOf(
            change,
            change.inputs.filter((input) => seen[input].project === name),
          ),
        )!,
      ]),
    );
  };
  const ordered = found
    .map((change) => ({ change, representative: representativeOf(change) }))
    .sort(
      (a, b) =>
        b.change.inputs.length - a.change.inputs.length ||
        area(b.change.parts.get(b.representative)!) - area(a.change.parts.get(a.representative)!) ||
        a.change.inputs[0] - b.change.inputs[0],
    );
  const ids = new Map(ordered.map(({ change }, i) => [change, `g${i + 1}`]));
  const groups = ordered.map(({ change, representative }): ChangeGroup => {
    const members = change.inputs.filter((input) => dominant(input) === change);
    return {
      id: ids.get(change)!,
      change: change.parts.get(representative)!,
      representative,
      members,
      alsoIn: change.inputs.filter((input) => !members.includes(input)),
      projects: projectsOf(change),
    };
  });
  const groupsOf = changes.map((_, input) => {
    if (changesOfInput[input].length === 0) return [];
    const main = dominant(input);
    return [
      ids.get(main)!,
      ...changesOfInput[input]
        .filter((change) => change !== main)
        .map((change) => ids.get(change)!)
        .sort((a, b) => Number(a.slice(1)) - Number(b.slice(1))),
    ];
  });
  const partsOf = changes.map((_, input) => new Map(changesOfInput[input].map((change) => [ids.get(change)!, change.parts.get(input)!])));
  return { groups, groupsOf, partsOf };
}
