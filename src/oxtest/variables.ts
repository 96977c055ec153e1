/**
 * `${NAME}` in a value or selector: the environment first, then `set var=` variables, then values
 * stored by `getText … store_as=` (the seed's order). An unresolved name is an error, never left
 * in place: a literal "${USER}" typed into a form would pass silently.
 */

export interface Variables {
  env: NodeJS.ProcessEnv;
  set: Map<string, string>;
  stored: Map<string, string>;
}

export function createVariables(env: NodeJS.ProcessEnv = process.env): Variables {
  return { env, set: new Map(), stored: new Map() };
}

/** A variable's value: the environment's first, then one set in the file, then one stored from the page. */
export function variableValue(variables: Variables, name: string): string | undefined {
  return variables.env[name] ?? variables.set.get(name) ?? variables.stored.get(name);
}

export function resolveText(text: string, variables: Variables): string {
  return text.replace(/\$\{([^}]*)\}/g, (_match, name: string) => {
    const value = variableValue(variables, name);
    if (value === undefined)
      throw new Error(
        `unresolved variable \${${name}}: set it in the environment, with set var=${name} value=…, or with getText … ` +
          `store_as=${name} earlier in the file`,
      );
    return value;
  });
}
