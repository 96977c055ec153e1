import type { ReadyTarget } from './server-ready';

/**
 * Every environment variable visual-uat reads or sets, declared once: its name, what it means, who
 * sets it, and a typed reader and writer. A module reads `ENV.outputDir.read()`, never
 * `process.env.VISUAL_UAT_OUTPUT_DIR` (tests/unit/config/environment.test.ts fails on a bare name).
 */

/**
 * Who sets a variable: `you` (the person running the tests, or their CI config), `cli` (the
 * visual-uat command, for the Playwright run it starts; you may set it too), `run` (visual-uat, for
 * the processes a run starts: the baseline pass, its web servers, the workers, the reporter),
 * `ci` (the CI service), `playwright`, `system` (the shell), `tests` (this project's own tests).
 */
export type SetBy = 'you' | 'cli' | 'run' | 'ci' | 'playwright' | 'system' | 'tests';

type Env = NodeJS.ProcessEnv;

interface Codec<T> {
  /** The value of a set, non-empty variable; undefined when the text is no such value. */
  decode(text: string): T | undefined;
  encode(value: T): string;
}

export interface Variable<T> {
  readonly name: string;
  readonly meaning: string;
  readonly setBy: SetBy;
  /** Its value in `env`; undefined when unset, empty or unreadable. */
  read(env?: Env): T | undefined;
  /** Sets it in `env` (this process's environment by default, which the processes it starts inherit); undefined removes it. */
  write(value: T | undefined, env?: Env): void;
  /** `{ [name]: value }`, for the environment of a process about to start. */
  entry(value: T): Record<string, string>;
}

function variable<T>(name: string, setBy: SetBy, meaning: string, codec: Codec<T>): Variable<T> {
  return {
    name,
    meaning,
    setBy,
    read(env = process.env) {
      const text = env[name];
      return text === undefined || text === '' ? undefined : codec.decode(text);
    },
    write(value, env = process.env) {
      if (value === undefined) delete env[name];
      else env[name] = codec.encode(value);
    },
    entry(value) {
      return { [name]: codec.encode(value) };
    },
  };
}

const text: Codec<string> = { decode: (value) => value, encode: (value) => value };

/** `1` or `true` (any case) is on; any other text is off. */
const flag: Codec<boolean> = { decode: (value) => value === '1' || value.toLowerCase() === 'true', encode: (value) => (value ? '1' : '0') };

const integer: Codec<number> = {
  decode: (value) => (Number.isInteger(Number(value)) ? Number(value) : undefined),
  encode: String,
};

const integers: Codec<number[]> = {
  decode: (value) => value.split(',').filter(Boolean).map(Number),
  encode: (value) => value.join(','),
};

function json<T>(): Codec<T> {
  return {
    decode: (value) => {
      try {
        return JSON.parse(value) as T;
      } catch {
        return undefined;
      }
    },
    encode: (value) => JSON.stringify(value),
  };
}

function oneOf<T extends string>(...values: T[]): Codec<T> {
  return { decode: (value) => values.find((each) => each === value), encode: (value) => value };
}

export type Role = 'current' | 'baseline';

/** The points of a run where the crash-recovery suite (tests/faults) can kill it. */
export type FaultPoint = 'worktree' | 'dependencies' | 'store' | 'reporter';

export const ENV = {
  // What you set (the README names each).
  debug: variable(
    'VISUAL_UAT_DEBUG',
    'you',
    "`timing`: each phase's wall time, printed at the end of the run (config/timing); comma-separated words",
    text,
  ),
  dir: variable('VISUAL_UAT_DIR', 'you', "the output folder, relative to the config's folder (over withVisualUat's outputDir)", text),
  base: variable('VISUAL_UAT_BASE', 'cli', 'the base branch to compare with (set by `visual-uat test --base`)', text),
  updateBaselines: variable(
    'VISUAL_UAT_UPDATE_BASELINES',
    'cli',
    'render every baseline again instead of taking it from the store (`visual-uat test --update-baselines`)',
    flag,
  ),
  keepWorktrees: variable(
    'VISUAL_UAT_KEEP_WORKTREES',
    'cli',
    'keep the base worktree after the run (`visual-uat test --keep-worktrees`)',
    flag,
  ),
  record: variable('VISUAL_UAT_RECORD', 'cli', 'record baselines without comparing (`visual-uat record`)', flag),
  allowMissingBaselines: variable(
    'VISUAL_UAT_ALLOW_MISSING_BASELINES',
    'you',
    'run on when the base pass left no baselines, every checkpoint new',
    flag,
  ),
  baselineStore: variable('VISUAL_UAT_BASELINE_STORE', 'you', 'the baseline store folder (over the baselineStore option)', text),
  model: variable('VISUAL_UAT_MODEL', 'cli', "the evaluator's model (over evaluator.model; `visual-uat eval --model`)", text),
  evalTimeoutMs: variable(
    'VISUAL_UAT_EVAL_TIMEOUT_MS',
    'you',
    'how long one evaluator call may take, in ms (over evaluator.timeoutMs)',
    text,
  ),
  overlap: variable(
    'VISUAL_UAT_OVERLAP',
    'you',
    '1 runs the baseline pass beside the tests, 0 before them, whatever the machine',
    oneOf('0', '1'),
  ),
  chromium: variable('VISUAL_UAT_CHROMIUM', 'you', "the Chromium to launch where Playwright's own browser does not run", text),
  openaiApiKey: variable('OPENAI_API_KEY', 'you', "the evaluator's API key (over evaluator.apiKey)", text),
  openaiBaseUrl: variable(
    'OPENAI_BASE_URL',
    'cli',
    "the evaluator's OpenAI-compatible endpoint (over evaluator.baseURL; `visual-uat eval --base-url`)",
    text,
  ),

  // What a run hands down to the processes it starts.
  role: variable('VISUAL_UAT_ROLE', 'run', 'baseline in the processes of the baseline pass', oneOf<Role>('current', 'baseline')),
  outputDir: variable('VISUAL_UAT_OUTPUT_DIR', 'run', "the run's output folder, absolute, once the global setup resolved it", text),
  contextFile: variable(
    'VISUAL_UAT_CONTEXT_FILE',
    'run',
    "the run context file the global setup wrote (the run's git facts and base pass)",
    text,
  ),
  baselineDir: variable('VISUAL_UAT_BASELINE_DIR', 'run', 'where the baseline pass writes its captures', text),
  earlierRenders: variable(
    'VISUAL_UAT_EARLIER_RENDERS',
    'run',
    "the file that names each rendered test's earlier render (see store/entry earlierRender), for both passes' captures",
    text,
  ),
  passGate: variable(
    'VISUAL_UAT_PASS_GATE',
    'run',
    'the file a base pass started ahead of its plan waits on before its tests: go, or stop (see baseline/pass-ahead)',
    text,
  ),
  baseCwd: variable('VISUAL_UAT_BASE_CWD', 'run', "the config's folder inside the base worktree", text),
  basePorts: variable('VISUAL_UAT_BASE_PORTS', 'run', "the free ports the base pass's web servers move to", integers),
  repoRoot: variable(
    'VISUAL_UAT_REPO_ROOT',
    'run',
    'where the current checkout is, so absolute webServer paths can be mapped into the base worktree',
    text,
  ),
  worktree: variable('VISUAL_UAT_WORKTREE', 'run', 'the base worktree', text),
  guardedCommand: variable('VISUAL_UAT_GUARDED_COMMAND', 'run', "the base server's real command, run by baseline/server-guard", text),
  guardPid: variable('VISUAL_UAT_GUARD_PID', 'run', 'the runner the base server must not outlive (see baseline/server-guard)', integer),
  guardReady: variable(
    'VISUAL_UAT_GUARD_READY',
    'run',
    "the base server's url or port, which the server guard tests until it answers (see config/server-ready)",
    json<ReadyTarget>(),
  ),
  options: variable(
    'VISUAL_UAT_OPTIONS',
    'run',
    "withVisualUat's options, without a key, for the global setup and the workers",
    json<unknown>(),
  ),
  webServers: variable(
    'VISUAL_UAT_WEB_SERVERS',
    'run',
    "the config's webServer entries (command, port) for the global setup: Playwright's resolved config has none when webServer is an array",
    json<unknown[]>(),
  ),
  serialProjects: variable(
    'VISUAL_UAT_SERIAL_PROJECTS',
    'run',
    'the projects that turn fullyParallel off, for the global setup and the reporter (see config/isolation)',
    json<string[]>(),
  ),
  screenshotDefaults: variable(
    'VISUAL_UAT_SCREENSHOT_DEFAULTS',
    'run',
    "each project's toHaveScreenshot defaults from the config, for the workers",
    json<Record<string, unknown>>(),
  ),
  probeFile: variable('VISUAL_UAT_PROBE_FILE', 'cli', 'where cli/config-probe writes the options it learnt from the config', text),
  port: variable('PORT', 'run', "the base server's port, for a server that takes its port from PORT", integer),
  jsonOutputName: variable('PLAYWRIGHT_JSON_OUTPUT_NAME', 'run', "where Playwright's JSON reporter writes the listing of the suite", text),
  forceColor: variable('FORCE_COLOR', 'run', '0: no colour codes in the logs of the processes a run starts', text),
  gitTerminalPrompt: variable('GIT_TERMINAL_PROMPT', 'run', '0: git fails instead of asking for a password', text),

  // What others set and visual-uat reads.
  githubBaseRef: variable('GITHUB_BASE_REF', 'ci', "a GitHub pull request's target branch: the base when none is named", text),
  gitlabTargetBranch: variable(
    'CI_MERGE_REQUEST_TARGET_BRANCH_NAME',
    'ci',
    "a GitLab merge request's target branch: the base when none is named",
    text,
  ),
  bitbucketTargetBranch: variable(
    'BITBUCKET_PR_DESTINATION_BRANCH',
    'ci',
    "a Bitbucket pull request's target branch: the base when none is named",
    text,
  ),
  githubActions: variable('GITHUB_ACTIONS', 'ci', 'set in GitHub Actions: the summary prints workflow annotations', text),
  githubStepSummary: variable('GITHUB_STEP_SUMMARY', 'ci', "GitHub Actions' job summary file, which the summary is added to", text),
  ci: variable('CI', 'ci', "set on CI: the default terminal reporter is Playwright's dot reporter", text),
  jsonOutputFile: variable(
    'PLAYWRIGHT_JSON_OUTPUT_FILE',
    'you',
    "the file Playwright's JSON reporter writes: with it (or PLAYWRIGHT_JSON_OUTPUT_NAME) the reporter prints nothing",
    text,
  ),
  junitOutputFile: variable(
    'PLAYWRIGHT_JUNIT_OUTPUT_FILE',
    'you',
    "the file Playwright's JUnit reporter writes: with it the reporter prints nothing",
    text,
  ),
  junitOutputName: variable(
    'PLAYWRIGHT_JUNIT_OUTPUT_NAME',
    'you',
    "the file name Playwright's JUnit reporter writes: with it the reporter prints nothing",
    text,
  ),
  htmlOutputDir: variable(
    'PLAYWRIGHT_HTML_OUTPUT_DIR',
    'playwright',
    "where Playwright's HTML reporter writes, over its outputFolder option",
    text,
  ),
  testWorkerIndex: variable(
    'TEST_WORKER_INDEX',
    'playwright',
    "set in Playwright's workers: a worker loading the config says nothing",
    text,
  ),
  user: variable('USER', 'system', 'who a decision (approve, reject, the review page) is recorded as when git names nobody', text),
  killAt: variable(
    'VISUAL_UAT_KILL_AT',
    'tests',
    'kill the run at this point (tests/faults)',
    oneOf<FaultPoint>('worktree', 'dependencies', 'store', 'reporter'),
  ),
  testTarball: variable('VISUAL_UAT_TEST_TARBALL', 'tests', "this project's packed tarball, packed once for the e2e tests", text),
} as const;

/** A pull request's (merge request's) target branch, as CI services name it, in the order they are tried. */
export const CI_BASE_VARIABLES = [ENV.githubBaseRef, ENV.gitlabTargetBranch, ENV.bitbucketTargetBranch] as const;

export function currentRole(env: Env = process.env): Role {
  return ENV.role.read(env) ?? 'current';
}
