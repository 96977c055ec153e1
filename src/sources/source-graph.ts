import fs from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import type ts from 'typescript';
import { typescript } from '../util/typescript';
import type { ImportCache } from './import-cache';
import { isInside, readJsonFile } from '../util/fs';

/**
 * The test side's modules as Playwright loads them: each file parsed by the TypeScript compiler,
 * each import resolved the way TypeScript does (the nearest tsconfig's `paths` and `baseUrl`,
 * package.json `imports` and `exports`, workspace packages linked into node_modules). The baseline
 * pass's selection and the suite key both read it, so they follow the same imports.
 */

/** Where an import leads. */
export type Resolved =
  | { kind: 'visual-uat'; subpath: string }
  | { kind: 'file'; file: string }
  /** A package outside the repository; `usesVisualUat` when it depends on visual-uat. */
  | { kind: 'package'; usesVisualUat: boolean }
  | { kind: 'builtin' }
  /** Not resolvable, or not statically known (a dynamic import of a computed string). */
  | { kind: 'unknown'; specifier: string };

export interface ImportBinding {
  /** The local name, or null for a side-effect import, a re-export or a require/import() call. */
  local: string | null;
  /** The exported name it binds ('*' for a namespace, 'default'), or null where unknown. */
  imported: string | null;
  resolved: Resolved;
}

export interface ParsedModule {
  file: string;
  source: ts.SourceFile;
  imports: ImportBinding[];
  /** The folders its imports were looked up in: a relative import's folder (and the folder it names), and each imported file's folder. */
  folders: string[];
}

const VISUAL_UAT = /^visual-uat(?:\/|$)/;
const CODE_FILE = /\.(?:[cm]?[jt]sx?)$/;

/** A file the graph reads as code (and follows the imports of). */
export function isCodeFile(file: string): boolean {
  return CODE_FILE.test(file);
}

function compilerOptionsFor(dir: string, cache: Map<string, ts.CompilerOptions>): ts.CompilerOptions {
  const ts = typescript();
  const configFile = ts.findConfigFile(dir, ts.sys.fileExists, 'tsconfig.json');
  const key = configFile ?? '';
  let options = cache.get(key);
  if (!options) {
    const parsed = configFile
      ? ts.getParsedCommandLineOfConfigFile(configFile, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined })
      : null;
    // Playwright loads .ts and .js alike and honours `paths`; Bundler resolution reads package.json
    // `imports`/`exports` and takes extensionless relative specifiers, as Playwright's loader does.
    options = {
      ...(parsed?.options ?? {}),
      allowJs: true,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      resolvePackageJsonImports: true,
      resolvePackageJsonExports: true,
    };
    cache.set(key, options);
  }
  return options;
}

/** The package folder that holds a file in node_modules. */
function packageDirOf(file: string): string | null {
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
  }
  return null;
}

function dependsOnVisualUat(packageDir: string | null): boolean {
  if (!packageDir) return true;
  const manifest = readJsonFile<Record<string, Record<string, string> | undefined>>(path.join(packageDir, 'package.json'));
  if (!manifest) return true;
  return ['dependencies', 'peerDependencies', 'optionalDependencies'].some((field) => !!manifest[field]?.['visual-uat']);
}

/** A declaration file in the repository stands for the JavaScript beside it, which is what runs. */
function runtimeFile(file: string): string | null {
  if (!/\.d\.[cm]?ts$/.test(file)) return file;
  const stem = file.replace(/\.d\.([cm]?)ts$/, '');
  return ['.js', '.mjs', '.cjs', '.ts'].map((extension) => stem + extension).find((candidate) => fs.existsSync(candidate)) ?? null;
}

export class SourceGraph {
  private readonly modules = new Map<string, ParsedModule | null>();
  private readonly options = new Map<string, ts.CompilerOptions>();

  /** `imports`: what earlier runs parsed, for `closure` (see import-cache.ts). */
  constructor(
    readonly repoRoot: string,
    private readonly importCache: ImportCache | null = null,
  ) {}

  /** The file parsed with its imports resolved; null when it cannot be read. */
  module(file: string): ParsedModule | null {
    if (!this.modules.has(file)) this.modules.set(file, this.parse(file));
    return this.modules.get(file)!;
  }

  /** Whether a file is the repository's own code (not a package's). */
  owns(file: string): boolean {
    return isInside(file, this.repoRoot) && !file.split(path.sep).includes('node_modules');
  }

  /** The starting files plus every repository file they import, transitively. */
  closure(start: readonly string[]): string[] {
    const seen = new Set<string>();
    const queue = [...start];
    while (queue.length) {
      const file = queue.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      if (!isCodeFile(file)) continue;
      for (const imported of this.importedFiles(file)) if (!seen.has(imported)) queue.push(imported);
    }
    this.importCache?.save();
    return [...seen].sort();
  }

  /** The repository files a module imports: from the import cache when it holds for the module, else parsed (and kept there). */
  private importedFiles(file: string): string[] {
    const parsedFiles = (parsed: ParsedModule | null) =>
      (parsed?.imports ?? []).flatMap(({ resolved }) => (resolved.kind === 'file' ? [resolved.file] : []));
    if (!this.importCache || this.modules.has(file)) return parsedFiles(this.module(file));
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(file);
    } catch {
      return [];
    }
    const cached = this.importCache.imports(file, bytes);
    if (cached) return cached;
    const parsed = this.module(file);
    const imported = parsedFiles(parsed);
    if (parsed) this.importCache.remember(file, bytes, imported, parsed.folders);
    return imported;
  }

  resolve(specifier: string, fromFile: string): Resolved {
    const ts = typescript();
    if (VISUAL_UAT.test(specifier)) return { kind: 'visual-uat', subpath: specifier.slice('visual-uat'.length) };
    if (isBuiltin(specifier)) return { kind: 'builtin' };
    const options = compilerOptionsFor(path.dirname(fromFile), this.options);
    const { resolvedModule } = ts.resolveModuleName(specifier, fromFile, options, ts.sys);
    if (!resolvedModule) return { kind: 'unknown', specifier };
    const file = path.resolve(resolvedModule.resolvedFileName);
    if (this.owns(file)) {
      const runtime = runtimeFile(file);
      return runtime ? { kind: 'file', file: runtime } : { kind: 'unknown', specifier };
    }
    return { kind: 'package', usesVisualUat: dependsOnVisualUat(packageDirOf(file)) };
  }

  private parse(file: string): ParsedModule | null {
    const ts = typescript();
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      return null;
    }
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const imports: ImportBinding[] = [];
    const folders: string[] = [];
    const add = (specifier: ts.Expression | undefined, bindings: { local: string | null; imported: string | null }[]) => {
      const resolved: Resolved =
        specifier && ts.isStringLiteralLike(specifier)
          ? this.resolve(specifier.text, file)
          : { kind: 'unknown', specifier: specifier?.getText(source) ?? '' };
      if (specifier && ts.isStringLiteralLike(specifier) && specifier.text.startsWith('.')) {
        const named = path.resolve(path.dirname(file), specifier.text);
        folders.push(path.dirname(named), named);
      }
      if (resolved.kind === 'file') folders.push(path.dirname(resolved.file));
      for (const binding of bindings) imports.push({ ...binding, resolved });
    };
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node)) {
        const clause = node.importClause;
        const bindings: { local: string | null; imported: string | null }[] = [];
        if (clause?.name) bindings.push({ local: clause.name.text, imported: 'default' });
        const named = clause?.namedBindings;
        if (named && ts.isNamespaceImport(named)) bindings.push({ local: named.name.text, imported: '*' });
        if (named && ts.isNamedImports(named))
          for (const element of named.elements)
            bindings.push({ local: element.name.text, imported: (element.propertyName ?? element.name).text });
        add(node.moduleSpecifier, bindings.length ? bindings : [{ local: null, imported: null }]);
        return;
      }
      if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
        add(node.moduleReference.expression, [{ local: node.name.text, imported: '*' }]);
        return;
      }
      if (ts.isExportDeclaration(node) && node.moduleSpecifier) add(node.moduleSpecifier, [{ local: null, imported: null }]);
      if (ts.isCallExpression(node)) {
        const dynamic = node.expression.kind === ts.SyntaxKind.ImportKeyword;
        const required = ts.isIdentifier(node.expression) && node.expression.text === 'require' && node.arguments.length === 1;
        if (dynamic || required) add(node.arguments[0], [{ local: null, imported: null }]);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    return { file, source, imports, folders };
  }
}
