// Runs a built Lambda bundle as the Node.js runtime does: in a process of its own whose
// environment is exactly the one given (the function's variables plus what Lambda sets), the
// module imported once, its handler invoked with each event in turn. Invocations travel as JSON
// lines over stdin/stdout; the bundle's own logs go to stderr.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

const RUNNER = `
import { createInterface } from 'node:readline';
const [file, name] = process.argv.slice(1);
const mod = await import(file);
const handler = mod[name];
for await (const line of createInterface({ input: process.stdin })) {
  const { id, event } = JSON.parse(line);
  const context = { awsRequestId: 'req-' + id, functionName: process.env.AWS_LAMBDA_FUNCTION_NAME, getRemainingTimeInMillis: () => 10000 };
  let reply;
  try {
    reply = { id, result: await handler(event, context) };
  } catch (e) {
    reply = { id, error: String(e && e.stack || e) };
  }
  process.stdout.write(JSON.stringify(reply) + '\\n');
}
`;

export type Invocation = { result?: unknown; error?: string };
export type LambdaProcess = { invoke(event: unknown): Promise<Invocation>; stderr(): string; close(): void };

/** `handler` is the template's Handler, e.g. index.handler for <dir>/index.mjs. */
export function startLambda(dir: string, handler: string, env: Record<string, string>): LambdaProcess {
  const [file, name] = handler.split('.') as [string, string];
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ['--input-type=module', '-e', RUNNER, pathToFileURL(`${dir}/${file}.mjs`).href, name], { env, cwd: dir });
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const waiting = new Map<number, (r: Invocation) => void>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    const { id, ...r } = JSON.parse(line) as { id: number } & Invocation;
    waiting.get(id)?.(r);
    waiting.delete(id);
  });
  child.on('exit', (code) => {
    for (const done of waiting.values()) done({ error: `the runtime exited (${code}): ${err}` });
    waiting.clear();
  });
  let next = 0;
  return {
    invoke: (event) => new Promise((resolve) => {
      const id = ++next;
      waiting.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ id, event })}\n`);
    }),
    stderr: () => err,
    close: () => void child.kill(),
  };
}
