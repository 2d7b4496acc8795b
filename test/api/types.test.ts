// The package's typed surface, compiled with the TypeScript compiler and the repository's tsconfig
// (whose `paths` map loopscope, loopscope/controller and loopscope/policy to their sources, as the
// package's declarations map them for a user): a consumer of all three entry points and every
// TypeScript example of docs/api.md compile clean; misuses are caught (the types are not `any`);
// every export of api/index.ts is documented; the API's declarations name no `any`.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPageBlocks, ROOT } from './doc-examples';

const CONSUMER = join(ROOT, 'test/api/fixtures/consumer.ts');
const API_INDEX = join(ROOT, 'api/index.ts');
const MARK = '// ✗ error';

/** Each line ending in MARK must be a type error (and no other line may be one). */
const MISUSES = `import { check, loadScenario, simulate } from 'loopscope';
import type { Policy } from 'loopscope/policy';
import type { Client } from 'loopscope/controller';

await simulate('s.yaml', { seed: '7' }); ${MARK}
const code: string = (await check('s.yaml')).exitCode; ${MARK}
loadScenario('s.yaml').durationMs = 1; ${MARK}
await check('s.yaml', { maxStates: 10, untill: '1m' }); ${MARK}
(await simulate('s.yaml')).frames[0]?.phase === 'sleeping'; ${MARK}
export const policy: Policy = () => ({ desired: 1 }); ${MARK}
export const get = (client: Client) => client.get('Pod'); ${MARK}
export { code };
`;

const dir = mkdtempSync(join(tmpdir(), 'loopscope-api-types-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let program: ts.Program;
let docFiles: string[];
const misuses = join(dir, 'misuses.ts');

/** The repository's compiler options (paths, strictness), emitting declarations only when asked. */
function repositoryOptions(): ts.CompilerOptions {
  const file = join(ROOT, 'tsconfig.json');
  const read = ts.readConfigFile(file, (p) => ts.sys.readFile(p));
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, ROOT, undefined, file);
  return { ...parsed.options, noEmit: false, declaration: true, emitDeclarationOnly: true };
}

const problems = (diagnostics: readonly ts.Diagnostic[]) =>
  diagnostics.map((d) => {
    const where = d.file && d.start !== undefined ? `${d.file.fileName}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}` : '';
    return `${where} TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });

beforeAll(() => {
  docFiles = apiPageBlocks()
    .filter((b) => b.lang === 'ts')
    .map((b, i) => {
      const file = join(dir, b.name ?? `api-md-block-${i}.ts`);
      writeFileSync(file, b.code);
      return file;
    });
  writeFileSync(misuses, MISUSES);
  program = ts.createProgram([CONSUMER, ...docFiles, misuses], repositoryOptions());
}, 180_000);

describe('the typed public API (loopscope, loopscope/controller, loopscope/policy)', () => {
  it('a consumer of the three entry points and every TypeScript example of docs/api.md compile clean', () => {
    expect(docFiles.length).toBeGreaterThanOrEqual(3);
    const files = [CONSUMER, ...docFiles].map((f) => program.getSourceFile(f)!);
    expect(problems(files.flatMap((f) => [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)]))).toEqual([]);
    // The imports resolve to the sources the package exports, not to anything else called loopscope.
    const resolved = program.getSourceFiles().map((f) => f.fileName);
    expect(resolved).toEqual(
      expect.arrayContaining([API_INDEX, join(ROOT, 'sim/user-controller/api.ts'), join(ROOT, 'sim/user-controller/policy-api.ts')]),
    );
  });

  it('misuses are type errors, each on its line (the API is typed, not any)', () => {
    const source = program.getSourceFile(misuses)!;
    const lines = new Set(program.getSemanticDiagnostics(source).map((d) => source.getLineAndCharacterOfPosition(d.start ?? 0).line + 1));
    const marked = MISUSES.split('\n').flatMap((line, i) => (line.endsWith(MARK) ? [i + 1] : []));
    expect([...lines].sort((a, b) => a - b)).toEqual(marked);
  });

  it('every export of api/index.ts has a doc comment', () => {
    const checker = program.getTypeChecker();
    const index = program.getSourceFile(API_INDEX)!;
    const exported = checker.getExportsOfModule(checker.getSymbolAtLocation(index)!);
    expect(exported.map((s) => s.name)).toEqual(
      expect.arrayContaining([
        'loadScenario',
        'simulate',
        'check',
        'conform',
        'InputError',
        'UsageError',
        'Trace',
        'Frame',
        'CheckResult',
        'ConformReport',
      ]),
    );
    const undocumented = exported.filter((s) => {
      const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
      return ts.displayPartsToString(target.getDocumentationComment(checker)).trim() === '';
    });
    expect(undocumented.map((s) => s.name)).toEqual([]);
  });

  it("the API's declarations name no any", () => {
    const declarations: string[] = [];
    for (const file of program.getSourceFiles().filter((f) => f.fileName.startsWith(join(ROOT, 'api/')))) {
      const emitted = program.emit(
        file,
        (name, text) => {
          declarations.push(`// ${name}\n${text}`);
        },
        undefined,
        true,
      );
      expect(problems(emitted.diagnostics)).toEqual([]);
    }
    expect(declarations.length).toBeGreaterThanOrEqual(6);
    const code = declarations
      .join('\n')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    expect(code.split('\n').filter((line) => /(?<![\w$'"`])any(?![\w$'"`])/.test(line))).toEqual([]);
  });
});
