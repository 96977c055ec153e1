import { sameRegion, type ChangePrint, type RegionPrint } from '../compare';

/**
 * One change across the run's checkpoints. The regions of all changed checkpoints are sorted into
 * classes of the same region (the fingerprint's tolerance rule), the ARIA lines into classes of the
 * same line; classes that appear on exactly the same checkpoints are one change. A header whose
 * logo and navigation both changed on 40 pages is one change of two regions; a banner that one of
 * those pages also got is another change, on that page alone.
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

/** Classes seen on the same checkpoints are one change. */
function changesOf(changes: (ChangePrint | null)[]): Change[] {
  const bySignature = new Map<string, Change>();
  for (const occurrences of classify(changes)) {
    const inputs = [...new Set(occurrences.map((o) => o.input))].sort((a, b) => a - b);
    const signature = inputs.join(',');
    const change = bySignature.get(signature) ?? { inputs, parts: new Map() };
    bySignature.set(signature, change);
    for (const { input, region, line } of occurrences) {
      const part = change.parts.get(input) ?? { threshold: changes[input]!.threshold, regions: [], lines: [] };
      if (region) part.regions.push(region);
      if (line) part.lines.push(line);
      change.parts.set(input, part);
    }
  }
  // A changed pair whose fingerprint is empty (nothing to tell apart) is a change of its own.
  changes.forEach((change, input) => {
    if (change && change.regions.length === 0 && change.lines.length === 0) bySignature.set(`empty ${input}`, { inputs: [input], parts: new Map([[input, change]]) });
  });
  for (const change of bySignature.values())
    for (const part of change.parts.values()) {
      part.regions.sort((a, b) => b.width * b.height - a.width * a.height);
      part.lines.sort();
    }
  return [...bySignature.values()];
}

/**
 * Groups the run's changes. `changes` holds each checkpoint's change (null: not a changed pair),
 * in a stable order (the results' order), which decides ties.
 */
export function groupChanges(changes: (ChangePrint | null)[]): Grouping {
  const found = changesOf(changes);
  const changesOfInput = changes.map((_, input) => found.filter((change) => change.parts.has(input)));
  const dominant = (input: number): Change =>
    changesOfInput[input].reduce((best, change) => {
      const [a, b] = [area(change.parts.get(input)!), area(best.parts.get(input)!)];
      return a > b || (a === b && change.inputs.length > best.inputs.length) ? change : best;
    });
  const representativeOf = (change: Change): number =>
    change.inputs.reduce((best, input) => (changesOfInput[input].length < changesOfInput[best].length ? input : best));
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
    return { id: ids.get(change)!, change: change.parts.get(representative)!, representative, members, alsoIn: change.inputs.filter((input) => !members.includes(input)) };
  });
  const groupsOf = changes.map((_, input) => {
    if (changesOfInput[input].length === 0) return [];
    const main = dominant(input);
    return [ids.get(main)!, ...changesOfInput[input].filter((change) => change !== main).map((change) => ids.get(change)!).sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)))];
  });
  const partsOf = changes.map((_, input) => new Map(changesOfInput[input].map((change) => [ids.get(change)!, change.parts.get(input)!])));
  return { groups, groupsOf, partsOf };
}
