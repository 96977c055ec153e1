import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  NOT_IN_STORE,
  STORE_UNREAD,
  planOnBase,
  planRun,
  planSelection,
  chosenTests,
  updateReason,
  type RunFacts,
  type SelectionFacts,
  type TestLookup,
} from '../../../src/baseline/plan';
import type { ListedTest } from '../../../src/baseline/selection';
import { lookUp } from '../../../src/store/entry';
import { lookUpSuite, type SuiteLookup } from '../../../src/store/suite-index';

const BASE = { branch: 'main', commit: 'abcdef0123456789' };

const INDEX = '/store/abcdef0123456789/suites/0123456789abcdef.json';
const MANIFEST = { complete: true, tests: {} };

/** `problem` null: the store's index of the suite is used; `doubtful`: the index is there but not used; `lookup` null: not looked up. */
function runFacts(
  change: Partial<RunFacts> & {
    problem?: string | null;
    doubtful?: boolean;
    lookup?: SuiteLookup | null;
    offersBase?: boolean;
    cores?: number;
    overlap?: string;
  },
): RunFacts {
  const { problem = NOT_IN_STORE, doubtful = false, lookup, offersBase = false, cores = 2, overlap, ...rest } = change;
  const found =
    lookup !== undefined ? lookup : problem === null ? { index: INDEX, manifest: MANIFEST } : { index: null, reason: problem, doubtful };
  return {
    base: BASE,
    suite: { key: '0123456789abcdef0123', files: 7, lookup: found },
    update: null,
    judgedBy: 'reporter',
    store: { dir: '/repo/.visual-uat/baseline-store', shown: '.visual-uat/baseline-store', readable: true, writable: true, offersBase },
    playwright: '1.56.0',
    args: [],
    machine: { cores, overlap },
    setupProjects: [],
    ...rest,
  };
}

function listed(title: string, file = 'tests/site.spec.ts', project = 'chromium'): ListedTest {
  return {
    project,
    relativeFile: file,
    file: `/repo/${file}`,
    line: 1,
    column: 1,
    titlePath: [title],
    key: `${project} › ${file} › ${title}`,
    folder: title,
  };
}

const home = listed('home');
const about = listed('about');
const pricing = listed('pricing');
const plain = listed('plain text');
const spread = [0, 1, 2, 3, 4].map((i) => listed(`page ${i}`, `tests/page-${i}.spec.ts`));
const SOURCE = { hash: 'feed', files: { 'tests/site.spec.ts': '1' } };

const hit = (checkpoints = ['page']): TestLookup => ({
  source: SOURCE,
  found: { entry: `/store/${checkpoints.join('-')}`, source: SOURCE.hash, checkpoints, layouts: [] },
});
const miss = (reason = NOT_IN_STORE): TestLookup => ({ source: SOURCE, found: { entry: null, reason } });
const unread: TestLookup = { source: SOURCE, found: null };

function selection(
  change: Partial<SelectionFacts> & { tests?: ListedTest[]; selected?: ListedTest[]; found?: [ListedTest, TestLookup][]; cores?: number },
): SelectionFacts {
  const { tests = [home, about, pricing], selected, found = [], cores = 2, ...rest } = change;
  const listing = { tests, selected: selected ?? tests, total: tests.length };
  return {
    listing,
    chosen: chosenTests(listing, change.judgedBy ?? 'reporter'),
    lookups: new Map(found.map(([test, lookup]) => [test.key, lookup])),
    reason: NOT_IN_STORE,
    judgedBy: 'reporter',
    store: { dir: '/repo/.visual-uat/baseline-store', shown: '.visual-uat/baseline-store', readable: true, writable: true },
    args: [],
    machine: { cores, overlap: undefined },
    setupProjects: [],
    workers: null,
    ...rest,
  };
}

describe('planRun: how a run that compares with another commit gets its baselines', () => {
  const cases: {
    name: string;
    facts: RunFacts;
    kind: string;
    workers?: number;
    list?: boolean;
    checkoutEarly?: boolean;
    takesBaselines: boolean;
    reason?: string;
    lines: RegExp[];
  }[] = [
    {
      name: "the store's index of this suite, every entry it names sealed (a warm run): no pass",
      facts: runFacts({ problem: null }),
      kind: 'indexed',
      takesBaselines: true,
      lines: [
        /^baselines from the store's index of this suite: main @ abcdef01, key 0123456789ab \(7 test-side files\): no worktree, no base server$/,
      ],
    },
    {
      name: 'no entry (a cold run on 2 cores, an empty store): a listing chooses before the tests',
      facts: runFacts({}),
      kind: 'listed',
      list: true,
      checkoutEarly: true,
      takesBaselines: true,
      reason: NOT_IN_STORE,
      lines: [],
    },
    {
      name: 'a doubtful index is said, and the store is still read test by test',
      facts: runFacts({ problem: 'the stored image of "landing" is altered', doubtful: true }),
      kind: 'listed',
      list: true,
      checkoutEarly: true,
      takesBaselines: true,
      reason: 'the stored image of "landing" is altered',
      lines: [/^the store's index of this suite is not used: the stored image of "landing" is altered$/],
    },
    {
      name: 'a store this run may not read: every test renders, for that reason',
      facts: runFacts({ lookup: null, store: { dir: '/x', shown: 'x', readable: false, writable: false, offersBase: false } }),
      kind: 'listed',
      list: true,
      checkoutEarly: true,
      takesBaselines: false,
      reason: STORE_UNREAD,
      lines: [],
    },
    {
      name: '-u (--update-snapshots=all): renders again, reads no baseline from the store, looks up no index',
      facts: runFacts({ lookup: null, update: updateReason(false, 'all') }),
      kind: 'listed',
      list: true,
      checkoutEarly: true,
      takesBaselines: false,
      reason: '--update-snapshots=all',
      lines: [],
    },
    {
      name: "updateBaselines on 4 cores: beside the tests, the runner's own list chooses",
      facts: runFacts({ update: updateReason(true, 'missing'), cores: 4 }),
      kind: 'deferred',
      workers: 2,
      takesBaselines: false,
      reason: 'updateBaselines is set',
      lines: [],
    },
    {
      name: 'Playwright before 1.56 (no --test-list): every test renders, and is stored as the index the next run takes whole',
      facts: runFacts({ playwright: '1.52.0', cores: 8, offersBase: true }),
      kind: 'listed',
      list: false,
      checkoutEarly: false,
      takesBaselines: true,
      reason: NOT_IN_STORE,
      lines: [
        /^the baseline store gives no single test here: Playwright 1\.52\.0 cannot run a list of tests \(--test-list, 1\.56 and later\), so the baseline pass renders every test, then stores them as this suite's index, which the next run of the same test files on [0-9a-f]{8} takes whole; upgrade @playwright\/test to 1\.56 or later to take single tests from \.visual-uat\/baseline-store$/,
      ],
    },
    {
      name: 'a blob run (a shard of CI): before the tests, the listing still reads the store',
      facts: runFacts({ judgedBy: 'blobs', cores: 8, offersBase: true, args: ['--shard=1/2'] }),
      kind: 'listed',
      list: true,
      checkoutEarly: false,
      takesBaselines: true,
      reason: NOT_IN_STORE,
      lines: [],
    },
    {
      name: 'a blob run with nothing to read from the store lists nothing',
      facts: runFacts({
        lookup: null,
        judgedBy: 'blobs',
        store: { dir: '/x', shown: 'x', readable: false, writable: false, offersBase: false },
      }),
      kind: 'listed',
      list: false,
      checkoutEarly: false,
      takesBaselines: false,
      reason: STORE_UNREAD,
      lines: [],
    },
    {
      name: 'on 2 cores, a store that offers tests of the base commit (one spec edited): beside, 1 worker',
      facts: runFacts({ offersBase: true }),
      kind: 'deferred',
      workers: 1,
      takesBaselines: true,
      reason: NOT_IN_STORE,
      lines: [],
    },
    {
      name: 'on 2 cores, a store that offers none usable at the base commit: before the tests',
      facts: runFacts({ offersBase: false }),
      kind: 'listed',
      list: true,
      checkoutEarly: true,
      takesBaselines: true,
      reason: NOT_IN_STORE,
      lines: [],
    },
    {
      name: 'a store offering the base commit does not count when -u keeps it unread',
      facts: runFacts({ offersBase: true, update: '--update-snapshots=changed' }),
      kind: 'listed',
      list: true,
      checkoutEarly: true,
      takesBaselines: false,
      reason: '--update-snapshots=changed',
      lines: [],
    },
    {
      name: 'VISUAL_UAT_OVERLAP=0 keeps the pass first even on 8 cores',
      facts: runFacts({ cores: 8, overlap: '0' }),
      kind: 'listed',
      list: true,
      checkoutEarly: true,
      takesBaselines: true,
      reason: NOT_IN_STORE,
      lines: [],
    },
    {
      name: 'a setup project (storageState) on 8 cores: before the tests, as both sides would write its files',
      facts: runFacts({ cores: 8, setupProjects: ['setup'] }),
      kind: 'listed',
      list: true,
      checkoutEarly: true,
      takesBaselines: true,
      reason: NOT_IN_STORE,
      lines: [],
    },
    {
      name: 'VISUAL_UAT_OVERLAP=1 puts it beside on 2 cores',
      facts: runFacts({ overlap: '1' }),
      kind: 'deferred',
      workers: 1,
      takesBaselines: true,
      reason: NOT_IN_STORE,
      lines: [],
    },
    {
      name: 'a shard judged by its own reporter stays in order',
      facts: runFacts({ cores: 8, args: ['--shard=2/3'] }),
      kind: 'listed',
      list: true,
      checkoutEarly: true,
      takesBaselines: true,
      reason: NOT_IN_STORE,
      lines: [],
    },
  ];

  it.each(cases)('$name', ({ facts, kind, workers, list, checkoutEarly, takesBaselines, reason, lines }) => {
    const plan = planRun(facts);
    expect(plan.kind).toBe(kind);
    expect(plan.takesBaselines).toBe(takesBaselines);
    if (plan.kind === 'deferred') expect(plan.workers).toBe(workers);
    if (plan.kind === 'listed') expect({ list: plan.list, checkoutEarly: plan.checkoutEarly }).toEqual({ list, checkoutEarly });
    if (plan.kind === 'indexed') expect({ index: plan.index, manifest: plan.manifest }).toEqual({ index: INDEX, manifest: MANIFEST });
    else expect(plan.reason).toBe(reason);
    expect(plan.lines).toHaveLength(lines.length);
    lines.forEach((line, index) => expect(plan.lines[index]).toMatch(line));
  });
});

describe('planSelection: which tests come from the store, which render, and when', () => {
  const cases: {
    name: string;
    facts: SelectionFacts;
    stored: ListedTest[];
    render: ListedTest[] | null;
    schedule: string;
    workers?: number;
    passReason: string;
    lines: string[];
  }[] = [
    {
      name: 'store hit for every test: no pass, no worktree',
      facts: selection({
        found: [
          [home, hit()],
          [about, hit()],
          [pricing, hit()],
        ],
      }),
      stored: [home, about, pricing],
      render: [],
      schedule: 'store-only',
      passReason: NOT_IN_STORE,
      lines: [
        'baseline: 0 of 3 tests rendered on the base; 3 from the store',
        'baselines from the store (.visual-uat/baseline-store): no worktree, no base server',
      ],
    },
    {
      name: 'store miss (a cold run): every test renders before the tests, for want of stored baselines',
      facts: selection({
        found: [
          [home, miss()],
          [about, miss()],
          [pricing, miss()],
        ],
      }),
      stored: [],
      render: [home, about, pricing],
      schedule: 'before',
      passReason: NOT_IN_STORE,
      lines: [
        'baseline: 3 of 3 tests rendered on the base (not in the store: home, about, pricing); 0 from the store',
        'the baseline pass runs before the current tests (3 tests)',
      ],
    },
    {
      name: 'a doubtful store entry: the pass says the doubt, not "not in the store"',
      facts: selection({ tests: [home], found: [[home, miss('the stored signals of "home" are altered')]] }),
      stored: [],
      render: [home],
      schedule: 'before',
      passReason: 'the stored signals of "home" are altered',
      lines: [
        'baseline: 1 of 1 test rendered on the base (the stored signals of "home" are altered: home); 0 from the store',
        'the baseline pass runs before the current tests (1 test)',
      ],
    },
    {
      name: 'entries of an older visual-uat beside missing ones: the doubt, and how many other reasons',
      facts: selection({
        found: [
          [home, miss('its store entry was sealed by an older visual-uat')],
          [about, miss('its store entry is unsealed')],
          [pricing, miss()],
        ],
      }),
      stored: [],
      render: [home, about, pricing],
      schedule: 'before',
      passReason: 'its store entry was sealed by an older visual-uat and 1 other reason',
      lines: [
        'baseline: 3 of 3 tests rendered on the base (its store entry was sealed by an older visual-uat: home; its store entry is unsealed: about; not in the store: pricing); 0 from the store',
        'the baseline pass runs before the current tests (3 tests)',
      ],
    },
    {
      name: 'a branch that edits many spec files: the first three reasons, then the others as one',
      facts: selection({
        tests: spread,
        found: spread.map((test, i) => [test, miss(`tests/page-${i}.spec.ts changed`)] as [ListedTest, TestLookup]),
      }),
      stored: [],
      render: spread,
      schedule: 'before',
      passReason: 'tests/page-0.spec.ts changed and 4 other reasons',
      lines: [
        'baseline: 5 of 5 tests rendered on the base (tests/page-0.spec.ts changed: page 0; tests/page-1.spec.ts changed: page 1; ' +
          'tests/page-2.spec.ts changed: page 2; 2 other reasons: page 3, page 4); 0 from the store',
        'the baseline pass runs before the current tests (5 tests)',
      ],
    },
    {
      name: 'edit of one spec on 2 cores: few to render, so beside the tests with 1 worker',
      facts: selection({
        found: [
          [home, miss('tests/site.spec.ts changed')],
          [about, hit()],
          [pricing, hit()],
        ],
      }),
      stored: [about, pricing],
      render: [home],
      schedule: 'beside',
      workers: 1,
      passReason: 'for the 1 test the store lacks',
      lines: [
        'baseline: 1 of 3 tests rendered on the base (tests/site.spec.ts changed: home); 2 from the store',
        'the baseline pass runs beside the current tests (1 test, 1 worker, on 2 cores)',
      ],
    },
    {
      name: 'edit of one spec on 2 cores with a setup project: before the tests, and why',
      facts: selection({
        found: [
          [home, miss('tests/site.spec.ts changed')],
          [about, hit()],
          [pricing, hit()],
        ],
        setupProjects: ['setup'],
      }),
      stored: [about, pricing],
      render: [home],
      schedule: 'before',
      passReason: 'for the 1 test the store lacks',
      lines: [
        'baseline: 1 of 3 tests rendered on the base (tests/site.spec.ts changed: home); 2 from the store',
        'the baseline pass runs before the current tests (1 test; setup project "setup" runs on each side in turn)',
      ],
    },
    {
      name: 'a serial file edited: its every test renders (their keys hold the whole file), more than the store gives, so before',
      facts: selection({
        tests: [home, about, pricing, listed('other', 'tests/other.spec.ts')],
        found: [
          [home, miss('tests/site.spec.ts changed')],
          [about, miss('tests/site.spec.ts changed')],
          [pricing, miss('tests/site.spec.ts changed')],
          [listed('other', 'tests/other.spec.ts'), hit()],
        ],
      }),
      stored: [listed('other', 'tests/other.spec.ts')],
      render: [home, about, pricing],
      schedule: 'before',
      passReason: 'for the 3 tests the store lacks',
      lines: [
        'baseline: 3 of 4 tests rendered on the base (tests/site.spec.ts changed: home, about, pricing); 1 from the store',
        'the baseline pass runs before the current tests (3 tests)',
      ],
    },
    {
      name: 'on 4 cores a pass with much to render still runs beside, with half the cores',
      facts: selection({
        cores: 4,
        found: [
          [home, miss()],
          [about, miss()],
          [pricing, miss()],
        ],
      }),
      stored: [],
      render: [home, about, pricing],
      schedule: 'beside',
      workers: 2,
      passReason: NOT_IN_STORE,
      lines: [
        'baseline: 3 of 3 tests rendered on the base (not in the store: home, about, pricing); 0 from the store',
        'the baseline pass runs beside the current tests (3 tests, 2 workers, on 4 cores)',
      ],
    },
    {
      name: 'a deferred run keeps its workers though the store gives none',
      facts: selection({
        workers: 3,
        cores: 2,
        found: [
          [home, miss()],
          [about, miss()],
          [pricing, miss()],
        ],
      }),
      stored: [],
      render: [home, about, pricing],
      schedule: 'beside',
      workers: 3,
      passReason: NOT_IN_STORE,
      lines: [
        'baseline: 3 of 3 tests rendered on the base (not in the store: home, about, pricing); 0 from the store',
        'the baseline pass runs beside the current tests (3 tests, 3 workers, on 2 cores)',
      ],
    },
    {
      name: 'a test without a checkpoint call is left out and said so; one the store holds with checkpoints (a top-up stored it) comes from it',
      facts: selection({
        tests: [home, about, pricing, plain],
        selected: [home, about],
        found: [
          [home, miss()],
          [about, miss()],
          [plain, hit(['late'])],
        ],
      }),
      stored: [plain],
      render: [home, about],
      schedule: 'before',
      passReason: 'for the 2 tests the store lacks',
      lines: [
        'baseline: 2 of 3 tests rendered on the base (not in the store: home, about); 1 from the store',
        'the baseline pass runs 2 of 4 tests: 1 come from the store, the others have no checkpoint call in their sources (checked after the run)',
        'the baseline pass runs before the current tests (2 tests)',
      ],
    },
    {
      name: 'a stored test with no checkpoint (a record run noted it) spares a test the pass would render, not one it leaves out',
      facts: selection({
        tests: [home, plain],
        selected: [home],
        found: [
          [home, hit([])],
          [plain, hit([])],
        ],
      }),
      stored: [home],
      render: [],
      schedule: 'store-only',
      passReason: NOT_IN_STORE,
      lines: [
        'baseline: 0 of 1 test rendered on the base; 1 from the store',
        'baselines from the store (.visual-uat/baseline-store): no worktree, no base server',
      ],
    },
    {
      name: 'a blob run renders every listed test the store lacks, those without a checkpoint call too',
      facts: selection({
        judgedBy: 'blobs',
        cores: 8,
        tests: [home, plain],
        selected: [home],
        found: [
          [home, hit()],
          [plain, miss()],
        ],
      }),
      stored: [home],
      render: [plain],
      schedule: 'before',
      passReason: 'for the 1 test the store lacks',
      lines: [
        'baseline: 1 of 2 tests rendered on the base (not in the store: plain text); 1 from the store',
        'the baseline pass runs before the current tests (1 test)',
      ],
    },
    {
      name: 'no test can capture: no pass needed',
      facts: selection({ tests: [plain], selected: [], found: [] }),
      stored: [],
      render: [],
      schedule: 'store-only',
      passReason: NOT_IN_STORE,
      lines: ['no baseline pass needed: none of the 1 tests can capture a checkpoint (no checkpoint call in their sources)'],
    },
    {
      name: 'no listing (old Playwright, or the listing failed): every test, before on 2 cores',
      facts: selection({ listing: null }),
      stored: [],
      render: null,
      schedule: 'before',
      passReason: NOT_IN_STORE,
      lines: ['the baseline pass runs before the current tests (every test)'],
    },
    {
      name: 'no listing on 4 cores: every test, beside',
      facts: selection({ listing: null, cores: 4, reason: '--update-snapshots=changed' }),
      stored: [],
      render: null,
      schedule: 'beside',
      workers: 2,
      passReason: '--update-snapshots=changed',
      lines: ['the baseline pass runs beside the current tests (every test, 2 workers, on 4 cores)'],
    },
    {
      name: 'the store unread (-u): each test renders for the update, as the pass says',
      facts: selection({
        reason: 'updateBaselines is set',
        tests: [home, about],
        found: [
          [home, unread],
          [about, unread],
        ],
      }),
      stored: [],
      render: [home, about],
      schedule: 'before',
      passReason: 'updateBaselines is set',
      lines: [
        'baseline: 2 of 2 tests rendered on the base (updateBaselines is set: home, about); 0 from the store',
        'the baseline pass runs before the current tests (2 tests)',
      ],
    },
    {
      name: 'a test file outside the repository renders, said so, with no source for the store',
      facts: selection({ tests: [home], found: [[home, { source: null, found: null }]] }),
      stored: [],
      render: [home],
      schedule: 'before',
      passReason: 'its file is outside the repository',
      lines: [
        'baseline: 1 of 1 test rendered on the base (its file is outside the repository: home); 0 from the store',
        'the baseline pass runs before the current tests (1 test)',
      ],
    },
    {
      name: 'two projects: each test is named with its project; the first three named, the rest counted',
      facts: selection({
        tests: [home, about, pricing, listed('home', 'tests/site.spec.ts', 'mobile')],
        found: [
          [home, miss()],
          [about, miss()],
          [pricing, miss()],
          [listed('home', 'tests/site.spec.ts', 'mobile'), miss()],
        ],
      }),
      stored: [],
      render: [home, about, pricing, listed('home', 'tests/site.spec.ts', 'mobile')],
      schedule: 'before',
      passReason: NOT_IN_STORE,
      lines: [
        'baseline: 4 of 4 tests rendered on the base (not in the store: chromium › home, chromium › about, chromium › pricing and 1 more); 0 from the store',
        'the baseline pass runs before the current tests (4 tests)',
      ],
    },
  ];

  it.each(cases)('$name', ({ facts, stored, render, schedule, workers, passReason, lines }) => {
    const plan = planSelection(facts);
    expect(plan.stored.map(({ test }) => test.key)).toEqual(stored.map((test) => test.key));
    expect(plan.render?.map((test) => test.key) ?? null).toEqual(render?.map((test) => test.key) ?? null);
    expect(plan.schedule.kind).toBe(schedule);
    if (plan.schedule.kind === 'beside') expect(plan.schedule.workers).toBe(workers);
    expect(plan.passReason).toBe(passReason);
    expect(plan.lines).toEqual(lines);
  });

  it("keeps the sources of the rendered tests for the store, and a stored test's layouts as its seal says", () => {
    const plan = planSelection(
      selection({
        found: [
          [home, miss()],
          [about, { source: null, found: null }],
          [pricing, { source: SOURCE, found: { entry: '/store/p', source: SOURCE.hash, checkpoints: ['a'], layouts: ['a'] } }],
        ],
      }),
    );
    expect(plan.sources).toEqual([{ key: home.key, source: SOURCE }]);
    expect(plan.stored).toEqual([{ test: pricing, entry: '/store/p', source: SOURCE.hash, checkpoints: ['a'], layouts: ['a'] }]);
    expect(plan.listed).toBe(3);
  });

  it("takes the store's own word for a test it never rendered and a suite it never indexed (NOT_IN_STORE is lookUp's and lookUpSuite's reason)", () => {
    const store = fs.mkdtempSync(path.join(os.tmpdir(), 'plan-store-'));
    expect(lookUp(store, BASE.commit, home.key, SOURCE)).toEqual({ entry: null, reason: NOT_IN_STORE });
    expect(lookUpSuite(store, BASE.commit, '0123456789abcdef0123')).toEqual({ index: null, reason: NOT_IN_STORE, doubtful: false });
  });
});

describe('planOnBase: a run on the base itself', () => {
  const facts = {
    base: BASE,
    record: false,
    judgedBy: 'reporter' as const,
    store: { dir: '/repo/store', shown: 'store', readable: true, writable: true },
    playwright: '1.56.0',
  };

  it('records into a store it may write, and says where', () => {
    expect(planOnBase(facts)).toEqual({
      records: true,
      lines: [
        'HEAD is the base (main @ abcdef01) with a clean tree: nothing to compare, no baseline pass; its checkpoints are recorded as the baselines of abcdef01 in store',
      ],
    });
  });

  it('records nothing into a read-only store, and says only that nothing compares', () => {
    expect(planOnBase({ ...facts, store: { ...facts.store, writable: false } })).toEqual({
      records: false,
      lines: ['HEAD is the base (main @ abcdef01) with a clean tree: nothing to compare, no baseline pass'],
    });
  });

  it('says a run on Playwright before 1.56 will not read what it records', () => {
    expect(planOnBase({ ...facts, playwright: '1.52.0' }).lines[0]).toMatch(
      /\(a run on Playwright 1\.52\.0 will not read them: taking tests from the store needs --test-list, Playwright 1\.56 or later\)$/,
    );
  });

  it('refuses `visual-uat record` in a run that writes blobs, in one line with the fix', () => {
    expect(() => planOnBase({ ...facts, record: true, judgedBy: 'blobs' })).toThrow(
      'visual-uat record: this run writes blobs (or has no visual-uat reporter), so nothing would judge or store its checkpoints: run it without --reporter=blob',
    );
  });

  it('records nothing, without refusing, in a blob run on the base that is no record run', () => {
    expect(planOnBase({ ...facts, judgedBy: 'blobs' }).records).toBe(false);
  });
});
