import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PACKAGE_ROOT } from '../scripts/fixture-repo';

/**
 * bench/RESULTS.md: the figures of the last `npm run bench`, one section per bench, each rewritten
 * by its own script between its markers, under a header that says which machine measured them.
 * What the file holds outside the markers (the previous figures) is never touched.
 */
export const RESULTS_FILE = path.join(PACKAGE_ROOT, 'bench', 'RESULTS.md');

/** Where sections not in the file yet go: before the previous figures, which stay last. */
export const PREVIOUS_HEADING = '## Previous figures';

/** The load when the bench began: the figures say what else the machine was doing. */
const LOAD_AT_START = os.loadavg()[0];

const markers = (id: string) => ({ open: `<!-- bench:${id} -->`, close: `<!-- /bench:${id} -->` });

/** `text` with section `id` holding `body`: replaced where its markers are, else added before the previous figures. */
export function withSection(text: string, id: string, body: string): string {
  const { open, close } = markers(id);
  const block = `${open}\n${body.trim()}\n${close}`;
  const start = text.indexOf(open);
  const end = text.indexOf(close, start);
  if (start >= 0 && end >= 0) return text.slice(0, start) + block + text.slice(end + close.length);
  const previous = text.indexOf(PREVIOUS_HEADING);
  if (previous < 0) return `${text.trimEnd()}\n\n${block}\n`;
  return `${text.slice(0, previous)}${block}\n\n${text.slice(previous)}`;
}

/** The machine the figures come from: they mean nothing without it. */
export function machineSection(): string {
  const cpus = os.cpus();
  return [
    '## The machine',
    '',
    `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, ${os.type()} ${os.release()} (${os.arch()}), Node ${process.version}.`,
    'Each section below says when it was measured and the load average when its bench began (other jobs on the machine make every figure slower; ratios within one run hold better than times).',
  ].join('\n');
}

/** Writes one bench's figures into bench/RESULTS.md, and the machine they were measured on. */
export function writeBenchSection(id: string, title: string, lines: string[]): void {
  const measured = `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, load average ${LOAD_AT_START.toFixed(1)} when the bench began.`;
  const body = [`## ${title}`, '', measured, '', '```', ...lines, '```'].join('\n');
  const text = fs.readFileSync(RESULTS_FILE, 'utf8');
  const temporary = `${RESULTS_FILE}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, withSection(withSection(text, 'machine', machineSection()), id, body));
  fs.renameSync(temporary, RESULTS_FILE);
}
