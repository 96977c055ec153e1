/**
 * The variables a run hands down to the processes it starts (the baseline pass, its web servers,
 * the workers): one name each, set and read through these constants.
 */

export const ROLE_ENV = 'VISUAL_UAT_ROLE';
export const OUTPUT_DIR_ENV = 'VISUAL_UAT_OUTPUT_DIR';
export const CONTEXT_FILE_ENV = 'VISUAL_UAT_CONTEXT_FILE';
export const BASELINE_DIR_ENV = 'VISUAL_UAT_BASELINE_DIR';
/** The file that names each rendered test's earlier render (see baseline/baseline-store earlierRender), for both passes' captures. */
export const EARLIER_RENDERS_ENV = 'VISUAL_UAT_EARLIER_RENDERS';
export const BASE_CWD_ENV = 'VISUAL_UAT_BASE_CWD';
export const BASE_PORTS_ENV = 'VISUAL_UAT_BASE_PORTS';
/** Where the base checkout is, so absolute webServer paths can be mapped into it. */
export const REPO_ROOT_ENV = 'VISUAL_UAT_REPO_ROOT';
export const WORKTREE_ENV = 'VISUAL_UAT_WORKTREE';
/** The base server's real command and the runner it must not outlive (see baseline/server-guard). */
export const GUARDED_COMMAND_ENV = 'VISUAL_UAT_GUARDED_COMMAND';
export const GUARD_PID_ENV = 'VISUAL_UAT_GUARD_PID';
/** The config's webServer entries (command, port) for the global setup: Playwright's resolved config has none when webServer is an array. */
export const WEB_SERVERS_ENV = 'VISUAL_UAT_WEB_SERVERS';
/** The projects that turn fullyParallel off, for the global setup and the reporter (see config/isolation). */
export const SERIAL_PROJECTS_ENV = 'VISUAL_UAT_SERIAL_PROJECTS';

export type Role = 'current' | 'baseline';

export function currentRole(env: NodeJS.ProcessEnv = process.env): Role {
  return env[ROLE_ENV] === 'baseline' ? 'baseline' : 'current';
}
