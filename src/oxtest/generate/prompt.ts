import type { AnswerFormat } from '../../evaluate/call';
import { COMMANDS, SELECTOR_STRATEGIES } from '../parser';
import type { GenerateJob } from './spec';

/** The model's answer: the next command, or that the acceptance criteria are met. */
export interface NextStep {
  command: string;
  done: boolean;
  reason: string;
}

export const NEXT_STEP_FORMAT: AnswerFormat = {
  name: 'oxtest_next_step',
  schema: {
    type: 'object',
    properties: {
      command: { type: 'string', description: 'the next oxtest command line, or "" when done' },
      done: { type: 'boolean', description: 'true when the acceptance criteria are met by the commands so far' },
      reason: { type: 'string', description: 'one sentence: why this command, or why the job is done' },
    },
    required: ['command', 'done', 'reason'],
    additionalProperties: false,
  },
};

function commandReference(): string {
  return Object.entries(COMMANDS)
    .map(([name, shape]) => {
      const selector = shape.selector === 'required' ? ' <selector>' : shape.selector === 'optional' ? ' [selector]' : '';
      const params = [...shape.required.map((p) => `${p}=…`), ...shape.optional.map((p) => `[${p}=…]`)].join(' ');
      return `- ${name}${selector}${params ? ` ${params}` : ''}`;
    })
    .join('\n');
}

export const SYSTEM_PROMPT =
  `You write UI acceptance tests in oxtest, a line-based command language run by Playwright.
You work one command at a time on a live page: each command you give is checked and executed, and you see the page after it.

Syntax: command key=value …; quote values with spaces: text="Sign in". Commands:
${commandReference()}

Selectors: ${SELECTOR_STRATEGIES.map((s) => `${s}=`).join(', ')} (role= takes name="…"; text= and name= match a substring).
A selector must match exactly one element. Prefer testid=, then role= with name=, then placeholder=, then short CSS.
A selector may have fallback=<strategy>=<value>, used when the primary finds nothing.
Variables: \${NAME} from set var=, getText … store_as=, or the environment.

Rules: end with assertions that prove the acceptance criteria. Take every required checkpoint with checkpoint name=… .
Reply with only a JSON object: {"command": "<one oxtest line>", "done": false, "reason": "…"}; ` +
  'when the criteria are met and proven: {"command": "", "done": true, "reason": "…"}.';

export function userPrompt(job: GenerateJob, commands: string[], feedback: string | null, view: string): string {
  return [
    `Job "${job.name}": ${job.prompt}`,
    `Acceptance criteria: ${job.acceptance}`,
    job.checkpoints.length ? `Required checkpoints: ${job.checkpoints.join(', ')}` : 'Required checkpoints: none',
    '',
    'Commands so far (all succeeded):',
    ...commands.map((line) => `  ${line}`),
    '',
    ...(feedback ? [`Result of your last answer: ${feedback}`, ''] : []),
    'The page now:',
    view,
  ].join('\n');
}
