import type { FullConfig, FullProject } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { setupProjects } from '../../../src/config/isolation';

function project(name: string, more: Partial<FullProject> = {}): FullProject {
  return { name, dependencies: [], ...more } as FullProject;
}

describe('setupProjects: the projects whose files both passes would write', () => {
  it('names the setup project the others depend on, and a teardown project, in config order', () => {
    const config = {
      projects: [
        project('chromium', { dependencies: ['setup'] }),
        project('cleanup'),
        project('setup', { teardown: 'cleanup' }),
        project('mobile', { dependencies: ['setup'] }),
      ],
    } as Pick<FullConfig, 'projects'>;
    expect(setupProjects(config)).toEqual(['cleanup', 'setup']);
  });

  it('is empty for projects that depend on none', () => {
    expect(setupProjects({ projects: [project('chromium'), project('firefox')] })).toEqual([]);
  });
});
