import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { createFixtureRepo } from '../scripts/fixture-repo';
import { imageUrlsOf, startFakeOpenAI, userTextOf } from '../tests/support/fake-openai';
import { runPlaywrightAsync } from '../tests/support/playwright-run';
import { writeBenchSection } from './results-file';

/**
 * `node dist/bench/request-size.js` (after `npm run build`): the bytes of the evaluator's request
 * for a full-page change, as they reach an OpenAI-compatible server over a socket. The case: the
 * promo-app's branch with its server serving style sheets as text/plain, so its home page
 * (1280×1448, full page) loses every style. Prints the request's Content-Length and its parts:
 * the system and user text, and each image's data URL with its format and size.
 * BENCH_REQUEST_IMAGES=<folder> also writes the images as the model gets them, to look at.
 */

const kib = (bytes: number) => `${bytes.toLocaleString('en-US')} B (${(bytes / 1024).toFixed(1)} KiB)`;

async function main(): Promise<void> {
  const server = await startFakeOpenAI();
  try {
    const repo = createFixtureRepo({ fixture: 'promo-app' });
    const serverFile = path.join(repo, 'server.js');
    fs.writeFileSync(serverFile, fs.readFileSync(serverFile, 'utf8').replace("'.css': 'text/css'", "'.css': 'text/plain'"));
    const run = await runPlaywrightAsync(repo, ['test'], { OPENAI_API_KEY: 'sk-bench', OPENAI_BASE_URL: server.baseURL });
    if (run.status !== 0) throw new Error(`the run failed (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
    const home = server.completions().find((request) => userTextOf(request).includes('Checkpoint: home'));
    if (!home) throw new Error('the home checkpoint was not sent to the evaluator');
    const messages = home.body.messages as { role: string; content: unknown }[];
    const system = String(messages.find((m) => m.role === 'system')?.content ?? '');
    const user = userTextOf(home);
    const lines = [
      `request: ${kib(Number(home.headers['content-length']))}`,
      `  system text: ${kib(Buffer.byteLength(system))}`,
      `  user text: ${kib(Buffer.byteLength(user))}`,
    ];
    for (const [i, url] of imageUrlsOf(home).entries()) {
      const bytes = Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
      const { format, width, height } = await sharp(bytes).metadata();
      lines.push(`  image ${i + 1}: ${kib(url.length)} as a data URL (${format} ${width}×${height}, ${kib(bytes.length)})`);
      // To look at what the model gets: is the text still legible at this scale and quality?
      const keep = process.env.BENCH_REQUEST_IMAGES;
      if (keep)
        await sharp(bytes)
          .png()
          .toFile(path.join(keep, `image-${i + 1}.png`));
    }
    process.stdout.write(`${lines.join('\n')}\n`);
    writeBenchSection(
      'request-size',
      "An evaluator request: the promo-app's home page without its style sheet, 1280×1448 (bench/request-size.ts)",
      lines,
    );
    fs.rmSync(repo, { recursive: true, force: true });
  } finally {
    await server.close();
  }
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack ?? error}\n`);
  process.exitCode = 1;
});
