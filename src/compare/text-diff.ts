/**
 * A unified diff of two texts, line by line (`diff -u` style, without file headers): enough for
 * ARIA snapshots, which are a few hundred lines at most. The common prefix and suffix are
 * trimmed, then the middle is aligned by longest common subsequence; past MAX_CELLS the middle is
 * shown as removed-then-added rather than spending quadratic time on it.
 */

const CONTEXT = 3;
const MAX_CELLS = 4_000_000;

type Op = { kind: ' ' | '-' | '+'; line: string; base: number; current: number };

function middleOps(a: string[], b: string[], aStart: number, bStart: number): Op[] {
  const n = a.length;
  const m = b.length;
  const removeAll = () => a.map((line, i): Op => ({ kind: '-', line, base: aStart + i, current: bStart }));
  const addAll = () => b.map((line, j): Op => ({ kind: '+', line, base: aStart + n, current: bStart + j }));
  if (n * m > MAX_CELLS || n === 0 || m === 0) return [...removeAll(), ...addAll()];
  // lcs[i][j]: length of the LCS of a[i..] and b[j..].
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) ops.push({ kind: ' ', line: a[i], base: aStart + i++, current: bStart + j++ });
    else if (j < m && (i === n || lcs[i][j + 1] > lcs[i + 1][j]))
      ops.push({ kind: '+', line: b[j], base: aStart + i, current: bStart + j++ });
    else ops.push({ kind: '-', line: a[i], base: aStart + i++, current: bStart + j });
  }
  return ops;
}

function lineOps(a: string[], b: string[]): Op[] {
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  const same = (from: number, count: number, shift: number): Op[] =>
    Array.from({ length: count }, (_, k) => ({ kind: ' ' as const, line: a[from + k], base: from + k, current: from + k + shift }));
  return [
    ...same(0, prefix, 0),
    ...middleOps(a.slice(prefix, a.length - suffix), b.slice(prefix, b.length - suffix), prefix, prefix),
    ...same(a.length - suffix, suffix, b.length - a.length),
  ];
}

function range(start: number, count: number): string {
  // diff -u numbers lines from 1; an empty range names the line before it.
  return count === 1 ? `${start + 1}` : `${count === 0 ? start : start + 1},${count}`;
}

/** The unified diff of `base` → `current`, or null when they are the same. */
export function unifiedDiff(base: string, current: string): string | null {
  if (base === current) return null;
  const ops = lineOps(base.split('\n'), current.split('\n'));
  const changed = ops.map((op, index) => (op.kind === ' ' ? -1 : index)).filter((index) => index >= 0);
  if (changed.length === 0) return null;
  // Hunks: changes closer than 2×CONTEXT lines share one.
  const hunks: { from: number; to: number }[] = [];
  for (const index of changed) {
    const last = hunks[hunks.length - 1];
    if (last && index - last.to <= 2 * CONTEXT + 1) last.to = index;
    else hunks.push({ from: index, to: index });
  }
  const out: string[] = [];
  for (const hunk of hunks) {
    const slice = ops.slice(Math.max(0, hunk.from - CONTEXT), Math.min(ops.length, hunk.to + CONTEXT + 1));
    const baseCount = slice.filter((op) => op.kind !== '+').length;
    const currentCount = slice.filter((op) => op.kind !== '-').length;
    out.push(`@@ -${range(slice[0].base, baseCount)} +${range(slice[0].current, currentCount)} @@`);
    for (const op of slice) out.push(`${op.kind}${op.line}`);
  }
  return out.join('\n');
}
