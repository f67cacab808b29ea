// docs/configuration.md is the reference of every environment variable and CLI flag. This test
// reads the source of src/, functions/, scripts/ and bin/ (tests excluded) for what the code
// actually reads and accepts, and fails on any difference in either direction.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SCANNED = ['src', 'functions', 'scripts', 'bin'];
const REFERENCE = 'docs/configuration.md';

type Found = Map<string, Set<string>>; // name → files that read or accept it
/** Flag definitions the scan could not read: reported as a failure rather than passed over. */
const unreadable: string[] = [];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'node_modules') out.push(...sourceFiles(path));
    } else if (/\.(ts|mts|js|mjs|sh)$/.test(name) && !/\.test\.(ts|mts|js|mjs)$/.test(name) && !name.endsWith('.d.ts')) {
      out.push(path);
    }
  }
  return out;
}

function add(found: Found, name: string, file: string): void {
  const files = found.get(name) ?? new Set<string>();
  files.add(relative(ROOT, file));
  found.set(name, files);
}

const ENV_NAME = /^[A-Z][A-Z0-9_]*$/;
/** String literals that are, by themselves, the name of a variable the project defines or reads from AWS. */
const ENV_KEY_LITERAL = /^(KS|AWS)_[A-Z0-9_]+$/;
/** `$KS_X` / `${KS_X}` inside a string: a command or a message that expands or asks for the variable. */
const ENV_EXPANSION = /\$\{?(KS_[A-Z0-9_]+)/g;
const FLAG_LITERAL = /^(--[a-z][a-z0-9-]*)=?$/;
const ARGV_METHODS = new Set(['includes', 'indexOf', 'lastIndexOf', 'startsWith']);

/** Whether `node` is an object the code reads the environment from: `process.env`, `env`, `opts.env ?? process.env`, `c.env`. */
function isEnvObject(node: ts.Expression): boolean {
  const text = node.getText().replace(/\s+/g, '');
  const endsInEnv = /(^|\.)env$/.test(text);
  const parenthesizedEnv = /^\(.*\benv\)$/.test(text);
  return endsInEnv || parenthesizedEnv;
}

function scanTypeScript(file: string, env: Found, flags: Found): void {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const usesArgv = source.text.includes('process.argv');
  // Functions that turn their first parameter into a flag: `function option(name) { … `--${name}` … }`.
  const flagHelpers = new Set<string>();
  const visitHelpers = (node: ts.Node): void => {
    if (ts.isFunctionDeclaration(node) && node.name && node.body && node.parameters[0] && ts.isIdentifier(node.parameters[0].name)) {
      if (node.body.getText().includes(`\`--\${${node.parameters[0].name.text}}\``)) flagHelpers.add(node.name.text);
    }
    ts.forEachChild(node, visitHelpers);
  };
  visitHelpers(source);

  const visit = (node: ts.Node): void => {
    // process.env.X, env.X, (opts.env ?? process.env).X
    if (ts.isPropertyAccessExpression(node) && ENV_NAME.test(node.name.text) && isEnvObject(node.expression)) {
      if (!isAssignmentTarget(node)) add(env, node.name.text, file);
    }
    // process.env['X'], env['X']
    if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression) && isEnvObject(node.expression)) {
      const name = node.argumentExpression.text;
      if (ENV_NAME.test(name) && !isAssignmentTarget(node)) add(env, name, file);
    }
    if (ts.isStringLiteralLike(node)) {
      // 'KS_X' handed to an env reader (a list of required names, a helper's argument)
      if (ENV_KEY_LITERAL.test(node.text)) add(env, node.text, file);
      for (const m of node.text.matchAll(ENV_EXPANSION)) add(env, m[1]!, file);
    }
    if (ts.isTemplateExpression(node) || ts.isTemplateLiteralToken(node)) {
      for (const m of node.getText().matchAll(ENV_EXPANSION)) add(env, m[1]!, file);
    }
    // env('KS_X') helpers whose argument is not KS_/AWS_-prefixed
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'env') {
      const arg = node.arguments[0];
      if (arg && ts.isStringLiteralLike(arg) && ENV_NAME.test(arg.text)) add(env, arg.text, file);
    }
    // parseArgs({ options: OPTIONS }) or parseArgs({ options: { … } }): each key a flag, each `short` one too
    if (ts.isCallExpression(node) && node.expression.getText() === 'parseArgs') {
      const found = parseArgsFlags(node, source);
      if (found.length === 0) unreadable.push(`${relative(ROOT, file)}: a parseArgs call whose options table this test cannot read (keep it an object literal in the same file)`);
      for (const flag of found) add(flags, flag, file);
    }
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const arg = node.arguments[0];
      // process.argv.includes('--x'), args.indexOf('--x'), a.startsWith('--x=') inside process.argv handling
      const onArgs = ts.isPropertyAccessExpression(callee) && (usesArgv || /argv|args?\b/i.test(callee.expression.getText()));
      if (onArgs && ts.isPropertyAccessExpression(callee) && ARGV_METHODS.has(callee.name.text) && arg && ts.isStringLiteralLike(arg)) {
        const m = FLAG_LITERAL.exec(arg.text);
        if (m) add(flags, m[1]!, file);
      }
      // option('minutes', 30) where option builds `--${name}`
      if (ts.isIdentifier(callee) && flagHelpers.has(callee.text) && arg && ts.isStringLiteralLike(arg)) add(flags, `--${arg.text}`, file);
    }
    // arg === '--x', case '--x': in hand-written argument loops
    if (ts.isBinaryExpression(node) && isEquality(node.operatorToken.kind)) {
      for (const [side, other] of [[node.left, node.right], [node.right, node.left]] as const) {
        const m = ts.isStringLiteralLike(side) ? FLAG_LITERAL.exec(side.text) : null;
        if (m && /arg/i.test(other.getText())) add(flags, m[1]!, file);
      }
    }
    if (ts.isCaseClause(node) && ts.isStringLiteralLike(node.expression) && /arg/i.test(node.parent.parent.expression.getText())) {
      const m = FLAG_LITERAL.exec(node.expression.text);
      if (m) add(flags, m[1]!, file);
    }
    // const { KS_X, KS_Y = 'default' } = process.env
    if (ts.isVariableDeclaration(node) && ts.isObjectBindingPattern(node.name) && node.initializer && isEnvObject(node.initializer)) {
      for (const element of node.name.elements) {
        const name = (element.propertyName ?? element.name).getText();
        if (ENV_NAME.test(name)) add(env, name, file);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

/** The flags of a parseArgs call: the keys of its `options` table (inline, or a const of this file) and their `short` letters. */
function parseArgsFlags(call: ts.CallExpression, source: ts.SourceFile): string[] {
  const config = call.arguments[0];
  if (!config || !ts.isObjectLiteralExpression(config)) return [];
  const options = config.properties.find((p) => p.name?.getText() === 'options');
  let table: ts.Expression | undefined;
  if (options && ts.isPropertyAssignment(options)) table = options.initializer;
  else if (options && ts.isShorthandPropertyAssignment(options)) table = options.name;
  if (table && ts.isIdentifier(table)) table = constInitializer(source, table.text);
  while (table && (ts.isAsExpression(table) || ts.isSatisfiesExpression(table) || ts.isParenthesizedExpression(table))) table = table.expression;
  if (!table || !ts.isObjectLiteralExpression(table)) return [];
  const flags: string[] = [];
  for (const option of table.properties) {
    if (!ts.isPropertyAssignment(option)) continue;
    flags.push(`--${unquote(option.name.getText())}`);
    if (!ts.isObjectLiteralExpression(option.initializer)) continue;
    const short = option.initializer.properties.find((p) => p.name?.getText() === 'short');
    if (short && ts.isPropertyAssignment(short) && ts.isStringLiteralLike(short.initializer)) flags.push(`-${short.initializer.text}`);
  }
  return flags;
}

function constInitializer(source: ts.SourceFile, name: string): ts.Expression | undefined {
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const d of statement.declarationList.declarations) if (ts.isIdentifier(d.name) && d.name.text === name) return d.initializer;
  }
  return undefined;
}

const unquote = (text: string): string => text.replace(/^['"`]|['"`]$/g, '');

function isEquality(kind: ts.SyntaxKind): boolean {
  return kind === ts.SyntaxKind.EqualsEqualsEqualsToken || kind === ts.SyntaxKind.ExclamationEqualsEqualsToken;
}

function isAssignmentTarget(node: ts.Node): boolean {
  const parent = node.parent;
  return ts.isBinaryExpression(parent) && parent.left === node && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken;
}

/** Shell: `$X` / `${X…}` read, less what the same script assigns (`X=…`, `export X=…`, `local X=…`). */
function scanShell(file: string, env: Found): void {
  const text = readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.replace(/(^|\s)#.*$/, ''))
    .join('\n');
  const assigned = new Set([...text.matchAll(/(?:^|[\s;&|(]|export\s+|local\s+)([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!));
  for (const m of text.matchAll(/\$\{?([A-Z][A-Z0-9_]*)/g)) if (!assigned.has(m[1]!)) add(env, m[1]!, file);
}

function scanCode(): { env: Found; flags: Found } {
  const env: Found = new Map();
  const flags: Found = new Map();
  for (const dir of SCANNED) {
    for (const file of sourceFiles(join(ROOT, dir))) {
      if (file.endsWith('.sh')) scanShell(file, env);
      else scanTypeScript(file, env, flags);
    }
  }
  return { env, flags };
}

/** The first cell's backticked names of every table row under `## <heading>` (down to the next `## `). */
function documentedNames(markdown: string, heading: string): Set<string> {
  const names = new Set<string>();
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l.trim() === `## ${heading}`);
  if (start < 0) return names;
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('## ')) break;
    const row = /^\|([^|]*)\|/.exec(line);
    if (!row || /^\s*:?-+:?\s*$/.test(row[1]!)) continue;
    for (const m of row[1]!.matchAll(/`([^`]+)`/g)) names.add(m[1]!);
  }
  return names;
}

const doc = readFileSync(join(ROOT, REFERENCE), 'utf8');
const code = scanCode();

describe(`${REFERENCE} lists exactly what the code reads`, () => {
  const documentedEnv = new Set([...documentedNames(doc, 'Environment variables')].filter((n) => ENV_NAME.test(n)));
  const documentedFlags = new Set([...documentedNames(doc, 'CLI flags')].filter((n) => /^--?[a-z]/.test(n)));

  it('finds what it looks for (the scan itself works)', () => {
    // Guards against a scan that silently finds nothing, which would pass the checks below.
    for (const name of ['KS_SYNC_TOKEN', 'KS_KUBE_QPS', 'KS_EKS_CLUSTER', 'KS_CLUSTER_ID', 'KS_FEATURE_GATES', 'KS_SETUP_FOR', 'KUBECONFIG', 'ADMIN_TOKEN']) {
      expect(code.env.has(name), name).toBe(true);
    }
    for (const flag of ['--base-url', '-n', '--detach', '--minutes', '--chaos', '--snapshot']) expect(code.flags.has(flag), flag).toBe(true);
    expect(documentedEnv.size).toBeGreaterThan(20);
    expect(documentedFlags.size).toBeGreaterThan(20);
  });

  it('reads every flag definition', () => {
    expect(unreadable).toEqual([]);
  });

  it('documents every environment variable the code reads', () => {
    const missing = [...code.env.keys()].filter((n) => !documentedEnv.has(n)).sort();
    expect(missing.map((n) => `${n} (read in ${[...code.env.get(n)!].join(', ')})`)).toEqual([]);
  });

  it('documents no environment variable the code does not read', () => {
    expect([...documentedEnv].filter((n) => !code.env.has(n)).sort()).toEqual([]);
  });

  it('documents every CLI flag the code accepts', () => {
    const missing = [...code.flags.keys()].filter((f) => !documentedFlags.has(f)).sort();
    expect(missing.map((f) => `${f} (accepted in ${[...code.flags.get(f)!].join(', ')})`)).toEqual([]);
  });

  it('documents no CLI flag the code does not accept', () => {
    expect([...documentedFlags].filter((f) => !code.flags.has(f)).sort()).toEqual([]);
  });
});

describe('documentedNames (the reference parser)', () => {
  const sample = [
    '## Environment variables',
    '### Node',
    '| variable | default | meaning |',
    '|---|---|---|',
    '| `KS_PORT` | `8443` | the port (`KS_HOST` is another row) |',
    '| `A_ONE`, `A_TWO` | unset | two names |',
    '## CLI flags',
    '| `--namespace`, `-n` | `kruise-system` | … |',
  ].join('\n');

  it('takes the first cell of each row under its heading, and stops at the next heading', () => {
    expect([...documentedNames(sample, 'Environment variables')]).toEqual(['KS_PORT', 'A_ONE', 'A_TWO']);
    expect([...documentedNames(sample, 'CLI flags')]).toEqual(['--namespace', '-n']);
  });

  it('finds nothing without the heading', () => {
    expect(documentedNames(sample, 'Settings').size).toBe(0);
  });
});
