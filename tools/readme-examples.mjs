/**
 * A package README's examples as programs a consumer can run (used by tools/release-check.mjs).
 *
 * An example is a fenced ```ts / ```typescript / ```js / ```javascript block of the README that
 * imports from `@critsec/…`. Blocks without such an import are fragments of the text around them
 * (e.g. the lines of a recipe) and are reported as such, not run. `NOT_RUNNABLE` names the blocks
 * that import but are not whole programs on purpose, each with its reason; an entry that no longer
 * matches a block is an error, so the list cannot go stale silently.
 *
 * Each example becomes an ES module (`.mjs`: the types stripped by TypeScript's `transpileModule`,
 * top-level await kept) and a CommonJS script (`.cjs`: the imports become `require`s, the body runs
 * in an async function). A statement followed by a `// throws SomeError` comment is run as
 * "must throw SomeError" (the README documents the throw), so the rest of the block runs too.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';

/** Blocks that import from critsec but are not whole programs, by package and a line they contain. */
export const NOT_RUNNABLE = [
  {
    pkg: '@critsec/testing',
    contains: "csCompliance({ it, name: 'my-mutex'",
    reason:
      'a vitest test file skeleton: `it` comes from the test runner and `myMutex()` is the reader’s own factory',
  },
  {
    pkg: '@critsec/cluster',
    contains: "algorithm: '/abs/path/my-mutex.js'",
    reason: 'a template: `algorithm` is the path of the reader’s own algorithm module',
  },
  {
    pkg: '@critsec/client',
    contains: "createLockClient({ baseUrl: 'http://127.0.0.1:7070' })",
    reason:
      'needs a lock service listening (`critsec node --serve`); packages/client/test/client.test.ts runs it against one',
  },
];

const FENCE = /^```(ts|typescript|js|javascript)\s*$/;

/** The fenced TypeScript/JavaScript blocks of a markdown text: `{ index, line, code }` (line 1-based). */
export function codeBlocks(markdown) {
  const lines = markdown.split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    if (!FENCE.test(lines[i])) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !lines[end].startsWith('```')) end++;
    blocks.push({ index: blocks.length, line: start, code: lines.slice(start, end).join('\n') });
    i = end;
  }
  return blocks;
}

/** Classifies the blocks of one package's README: `{ runnable, skipped }`; throws on a stale entry. */
export function readmeExamples(pkg, readmePath) {
  const blocks = codeBlocks(readFileSync(readmePath, 'utf8'));
  const runnable = [];
  const skipped = [];
  const used = new Set();
  for (const block of blocks) {
    const rule = NOT_RUNNABLE.find((r) => r.pkg === pkg && block.code.includes(r.contains));
    if (rule) {
      used.add(rule);
      skipped.push({ ...block, reason: rule.reason });
    } else if (!/from\s+['"]@critsec\//.test(block.code)) {
      skipped.push({
        ...block,
        reason: 'a fragment of the surrounding text (imports nothing from @critsec)',
      });
    } else runnable.push(block);
  }
  for (const rule of NOT_RUNNABLE) {
    if (rule.pkg === pkg && !used.has(rule)) {
      throw new Error(
        `tools/readme-examples.mjs: NOT_RUNNABLE entry "${rule.contains}" matches no block of ${readmePath}`,
      );
    }
  }
  return { runnable, skipped };
}

/** The bare module names an example imports (`@critsec/core`, `valibot`, …), `node:` builtins left out. */
export function importedModules(code) {
  const names = new Set();
  for (const m of code.matchAll(/(?:from|import)\s+['"]([^'"./][^'"]*)['"]/g)) {
    if (m[1].startsWith('node:')) continue;
    const parts = m[1].split('/');
    names.add(m[1].startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
  }
  return [...names];
}

const HELPER = `function __critsecExpectThrow(fn, name) {
  try { fn(); } catch (e) {
    if (e && (e.name === name || (e.constructor && e.constructor.name === name))) {
      console.log('(threw ' + name + ' as the README says)');
      return;
    }
    throw e;
  }
  throw new Error('the README says this throws ' + name + ', but it returned');
}
`;

/** Rewrites statements followed by `// throws X` into "must throw X" calls; returns `{ imports, body }`. */
function split(code) {
  const file = ts.createSourceFile('example.ts', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const imports = [];
  const body = [];
  const statements = file.statements;
  statements.forEach((s, i) => {
    const text = code.slice(s.getFullStart(), s.end);
    if (ts.isImportDeclaration(s)) return void imports.push(text);
    const after = code.slice(s.end, i + 1 < statements.length ? statements[i + 1].getStart() : code.length);
    const thrown = /^[^\n]*\n\s*\/\/ throws (\w+)/.exec(after) ?? /^\s*\/\/ throws (\w+)/.exec(after);
    body.push(thrown ? `\n__critsecExpectThrow(() => {${text}\n}, '${thrown[1]}');` : text);
  });
  const usesHelper = body.some((b) => b.includes('__critsecExpectThrow('));
  return { imports: imports.join(''), body: (usesHelper ? `\n${HELPER}` : '') + body.join('') };
}

const compile = (source, module) =>
  ts.transpileModule(source, {
    compilerOptions: {
      module,
      target: ts.ScriptTarget.ES2022,
      esModuleInterop: true,
      verbatimModuleSyntax: false,
    },
    reportDiagnostics: false,
  }).outputText;

/**
 * The example as an ES module and as a CommonJS script. Both exit on their own when the example
 * does; `grace` ms after the example's last statement a timer (unref'd: it keeps nothing alive)
 * ends a process that an example left listening, and `exitedBy` says it was needed.
 */
export function toPrograms(code, grace = 2000) {
  const { imports, body } = split(code);
  const done = `setTimeout(() => { console.error('release-check: example left handles open'); process.exit(); }, ${grace}).unref();`;
  const esm = compile(`${imports}\n${body}\n${done}\n`, ts.ModuleKind.ESNext);
  const cjsSource = `${imports}\n(async () => {${body}\n})().then(() => { ${done} }, (e) => { console.error(e); process.exitCode = 1; });\n`;
  const cjs = compile(cjsSource, ts.ModuleKind.CommonJS);
  return { esm, cjs };
}
