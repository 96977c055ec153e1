import { corpusApps, runCorpus } from './corpus';
import { scoreApps, type Miss } from './score';

/**
 * `npm run corpus:attribution`: runs every app of the attribution corpus from the packed plugin
 * and prints how often the explanation names the right cause, and each miss. Exits 1 below the
 * target (90 % right, no false "no changed file mentions", no invisible change listed).
 */

const TARGET = 0.9;

const only = process.argv.slice(2);
const apps = corpusApps().filter((app) => only.length === 0 || only.includes(app.fixture));
const runs = runCorpus(apps);
const score = scoreApps(runs);
const line = (miss: Miss) => `  ${miss.app} › ${miss.checkpoint}\n    expected: ${miss.expected}\n    said:     ${miss.said}`;

for (const run of runs)
  console.log(`${run.fixture}: ${run.labels.changes.length} labelled changes, run in ${(run.durationMs / 1000).toFixed(1)} s`);
const share = score.labelled ? score.right / score.labelled : 0;
console.log(
  `\ncause right (element, property, file, commit): ${score.right} of ${score.labelled} (${Math.round(share * 100)} %; target ≥ ${TARGET * 100} %)`,
);
console.log(`"no changed file mentions" where a changed file does: ${score.falseSilences.length}`);
console.log(`invisible differences listed: ${score.invisibleListed.length}`);
for (const [title, list] of [
  ['misses', score.misses],
  ['false "no changed file mentions"', score.falseSilences],
  ['invisible differences listed', score.invisibleListed],
  ['listed without a label (for reading)', score.unlabelled],
] as const)
  if (list.length) console.log(`\n${title}:\n${list.map(line).join('\n')}`);
process.exitCode = share >= TARGET && score.falseSilences.length === 0 && score.invisibleListed.length === 0 ? 0 : 1;
