import { spawn, type ChildProcess } from 'node:child_process';
import { fixtureEnv, visualUatCli } from '../../scripts/fixture-repo';

/** A running `visual-uat review`: the URL it printed, what it wrote, and how to stop it (Ctrl-C). */
export interface Review {
  url: string;
  output: () => string;
  stop(): Promise<number | null>;
}

/** Starts `visual-uat review --no-open` as a user does, and reads the URL it prints once it has started. */
export function startReview(repo: string): Promise<Review> {
  const child: ChildProcess = spawn(process.execPath, [visualUatCli(repo), 'review', '--no-open'], { cwd: repo, env: fixtureEnv() });
  let output = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`visual-uat review printed no URL within 30 s:\n${output}`)), 30_000);
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      // The last line it prints on start-up.
      if (!output.includes('visual-uat review: Ctrl-C stops it')) return;
      const url = /visual-uat review: (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec(output)![1];
      clearTimeout(timer);
      resolve({
        url,
        output: () => output,
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done(child.exitCode);
            child.once('exit', (code) => done(code));
            child.kill('SIGINT');
          }),
      });
    });
    child.once('exit', () => reject(new Error(`visual-uat review exited:\n${output}`)));
  });
}
