import { fixtureModules, packPlugin } from '../../scripts/fixture-repo';
import { ENV } from '../../src/config/environment';

/**
 * Once per test run: pack this checkout (npm test builds it first) and install the tarball with
 * @playwright/test, the way a user's project gets the plugin. Every temporary repository gets a
 * node_modules hard-linked from that one install; the workers find the tarball in the environment.
 */
export default function globalSetup(): void {
  const tarball = packPlugin();
  ENV.testTarball.write(tarball);
  fixtureModules(undefined, tarball);
}
