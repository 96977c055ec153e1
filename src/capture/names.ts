const MAX_NAME_LENGTH = 100;

/** Checkpoint names become file names: refuse anything that could escape the test's folder. */
export function validateCheckpointName(name: unknown): string {
  if (typeof name !== 'string' || name.trim() === '')
    throw new Error(
      'screenshotCheckpoint: the name is empty: give each checkpoint a short unique name, e.g. screenshotCheckpoint("plans")',
    );
  if (name.length > MAX_NAME_LENGTH)
    throw new Error(`screenshotCheckpoint: the name "${name.slice(0, 20)}…" has ${name.length} characters: use at most ${MAX_NAME_LENGTH}`);
  if (/[\\/]/.test(name) || name.includes('..') || name.includes('\0'))
    throw new Error(
      `screenshotCheckpoint: the name "${name.replace(/\0/g, '\\0')}" contains a path separator, ".." or NUL: use letters, ` +
        `digits, spaces, "-" or "_"`,
    );
  if (/[\x00-\x1f<>:"|?*]/.test(name))
    throw new Error(
      `screenshotCheckpoint: the name "${name}" contains a character that is not allowed in file names: use letters, digits, ` +
        `spaces, "-" or "_"`,
    );
  return name;
}
