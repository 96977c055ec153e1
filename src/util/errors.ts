/**
 * A problem the user fixes before a run can start (a branch that does not resolve, a lock another
 * run holds, a store or approvals file that does not read): the setup prints its message as one
 * line and stops. In a module of its own so a pure module (baseline/plan.ts) can throw it without
 * importing what runs git or spawns processes.
 */
export class SetupError extends Error {}
