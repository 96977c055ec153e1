import type { ChangePrint, RegionPrint } from '../../../src/compare';
import { groupChanges, type Seen } from '../../../src/group';

/** A region's print with flat sides: its size and the grey of its current side (the base is white). */
export function flatRegion(width: number, height: number, level: number): RegionPrint {
  const cell = Math.min(10, Math.max(1, Math.ceil(Math.sqrt((width * height) / 1024))));
  const side = (value: number) => new Uint8Array(Math.ceil(width / cell) * Math.ceil(height / cell) * 3).fill(value);
  return { kind: 'modified', width, height, cell, base: side(255), current: side(level) };
}

/** The grouping of checkpoints, each its change's print and where it was seen. */
export function grouped(...checkpoints: { change: ChangePrint; seen: Seen }[]) {
  return groupChanges(
    checkpoints.map((c) => c.change),
    checkpoints.map((c) => c.seen),
  );
}
