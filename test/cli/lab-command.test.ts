// `loopscope lab`: bad files and options are refused before anything is served (one line, exit 2),
// a clone that has not built the lab is told so (exit 1), the server gives out the lab's files and
// nothing else, and the user's files reach the page as JSON that no file's text can break out of.
// The page itself (chromium) is test/browser/lab-command.test.ts.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstFileParams, labFilesElement, readLabFiles } from '../../cli/lab/files';
import type { LabServer } from '../../cli/lab/serve';
import { startLabServer } from '../../cli/lab/serve';
import { NOT_BUILT } from '../../cli/lab/run-lab';
import { createRunner, parseScenarioText } from '../../sim/loops/registry';
import { traceJson } from '../../sim/trace-schema';
import { runInProcess } from './in-process';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'loopscope-lab-cli-'));
/** A stand-in for the built lab: the page's shape (its root element) and one asset. */
const labDir = join(dir, 'lab');
const SECRET = 'not-for-the-page-7f3a';
const INDEX =
  '<!doctype html>\n<html><head><script type="module" src="./assets/app.js"></script></head>\n<body>\n<div id="root"></div>\n</body></html>\n';
mkdirSync(join(labDir, 'assets'), { recursive: true });
writeFileSync(join(labDir, 'index.html'), INDEX);
writeFileSync(join(labDir, 'assets', 'app.js'), 'console.log("lab");\n');
writeFileSync(join(labDir, 'assets', 'style.css'), 'body { margin: 0 }\n');
writeFileSync(join(dir, 'secret.txt'), SECRET);
mkdirSync(join(dir, 'outside'));
writeFileSync(join(dir, 'outside', 'secret.txt'), SECRET);
symlinkSync(join(dir, 'outside'), join(labDir, 'link'));

/** A scenario the lab does not ship, whose text holds what would end a script element early. */
const HOSTILE_DESCRIPTION = '</script><script>window.__pwned = 1</script><!-- <b>';
const myScenario = join(dir, 'my-flapping.yaml');
writeFileSync(
  myScenario,
  readFileSync(join(ROOT, 'scenarios/flapping.yaml'), 'utf8')
    .replace('name: flapping', 'name: my-flapping')
    .replace(/^description: .*$/m, `description: ${JSON.stringify(HOSTILE_DESCRIPTION)}`),
);

/** A real trace: the talk's lab run for a minute (what `loopscope sim --json` writes). Through the browser-safe
 * registry, as the lab command itself: sim/loops/index would install the Node loaders of controller modules in
 * this process, and the command's refusal of a module scenario (below) relies on their absence. */
const traceFile = join(dir, 'talk-lab.trace.json');
function writeTrace(): void {
  const file = join(ROOT, 'scenarios/talk-lab.yaml');
  const { entry, scenario } = parseScenarioText(file, 'talk-lab', readFileSync(file, 'utf8'));
  const runner = createRunner(entry, scenario);
  runner.run(60_000);
  writeFileSync(traceFile, traceJson(runner.trace()));
}

const savedLabDir = process.env.LOOPSCOPE_LAB_DIR;
beforeAll(() => {
  process.env.LOOPSCOPE_LAB_DIR = labDir;
  writeTrace();
});
afterAll(() => {
  if (savedLabDir === undefined) delete process.env.LOOPSCOPE_LAB_DIR;
  else process.env.LOOPSCOPE_LAB_DIR = savedLabDir;
  rmSync(dir, { recursive: true, force: true });
});

/** One line on stderr, naming what it must, nothing on stdout (no URL: nothing served). */
function expectOneLine(r: { code: number; stdout: string; stderr: string }, code: number, message: RegExp, what: string): void {
  expect(r.code, `${what}: ${r.stderr}`).toBe(code);
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines, what).toHaveLength(1);
  expect(lines[0], what).toMatch(/^loopscope: /);
  expect(lines[0], what).toMatch(message);
  expect(lines[0], what).not.toMatch(/\n\s+at |internal error/);
  expect(r.stdout, what).toBe('');
}

describe('loopscope lab: what it refuses', () => {
  it('a file the lab cannot open: one line naming the file and what was expected, exit 2', async () => {
    const trace = JSON.parse(readFileSync(traceFile, 'utf8')) as { frames: { state: string }[] };
    const write = (name: string, text: string) => {
      const file = join(dir, name);
      writeFileSync(file, text);
      return file;
    };
    const notLoop = write('other.json', JSON.stringify({ ...trace, loop: 'nomad' }));
    const badState = write(
      'bad-state.json',
      JSON.stringify({ ...trace, frames: trace.frames.map((f, i) => (i === 1 ? { ...f, state: 'dancing' } : f)) }),
    );
    const cases: [string[], RegExp][] = [
      [[join(dir, 'missing.yaml')], /missing\.yaml: expected a scenario \(\.yaml\) or a trace \(\.json.*got no such file/],
      [[join(dir, 'outside')], /outside: expected a scenario .* or a trace .*got a directory/],
      [[write('broken.json', '{"loop": ')], /broken\.json: expected a loopscope trace .*: malformed JSON/],
      [[notLoop], /other\.json: expected a loopscope trace .*: loop: expected one of cron, puppet, /],
      [[badState], /bad-state\.json: expected a loopscope trace .*: frames\.1\.state: "dancing" is not a state of incus-hpa/],
      [[write('bad.yaml', 'loop: incus-hpa\nduration: [\n')], /bad\.yaml: line \d+, column \d+: malformed YAML/],
      [[write('no-loop.yaml', 'duration: 1m\n')], /no-loop\.yaml: loop: expected one of incus-hpa, /],
      // A controller module runs under the CLI only: the lab could list it but never run it.
      [
        [join(ROOT, 'examples/podservice/check-buggy.yaml')],
        /check-buggy\.yaml: controller\.module: expected a built-in controller in the lab/,
      ],
      [[write('notes.txt', 'just some words: [\n')], /notes\.txt: expected a scenario \(\.yaml\) or a trace .*; read as a scenario: /],
      [
        [myScenario, write('again.yaml', readFileSync(myScenario, 'utf8'))],
        /again\.yaml: name: expected a scenario name no other file given uses, got "my-flapping" \(.*my-flapping\.yaml is also/,
      ],
      // The good file first: a bad one later still stops everything.
      [[myScenario, join(dir, 'gone.json')], /gone\.json: .*got no such file/],
      [[myScenario, '--lang', 'fr'], /--lang: expected one of en, pt-BR, got "fr"/],
      [[myScenario, '--port', '70000'], /--port: expected a port number from 0 to 65535/],
      [[myScenario, '--port', 'http'], /--port: expected a port number/],
    ];
    for (const [args, message] of cases) expectOneLine(await runInProcess(['lab', ...args]), 2, message, args.join(' '));
  }, 60_000);

  it('the lab not built: says how to build it, exit 1, whatever the files', async () => {
    const saved = process.env.LOOPSCOPE_LAB_DIR;
    process.env.LOOPSCOPE_LAB_DIR = join(dir, 'never-built');
    try {
      for (const args of [[], [myScenario]]) {
        const r = await runInProcess(['lab', ...args]);
        expectOneLine(
          r,
          1,
          /^loopscope: the lab is not built: run npm run build \(or npm start in a clone\)$/,
          args.join(' ') || '(no file)',
        );
        expect(r.stderr).toBe(`loopscope: ${NOT_BUILT}\n`);
      }
    } finally {
      process.env.LOOPSCOPE_LAB_DIR = saved;
    }
  });

  it('a port another program holds, asked for by --port: exit 1', async () => {
    const holder = createServer();
    await new Promise<void>((ok) => holder.listen(0, '127.0.0.1', ok));
    try {
      const port = (holder.address() as AddressInfo).port; // a TCP server's address is an AddressInfo
      expectOneLine(await runInProcess(['lab', '--port', String(port)]), 1, new RegExp(`--port ${port}: in use`), 'busy port');
    } finally {
      holder.close();
    }
  });
});

/** A GET (or another method) with the path sent exactly as written (no client folds `..` away). */
function get(
  port: number,
  path: string,
  init: { method?: string; host?: string } = {},
): Promise<{ status: number; type: string; body: string }> {
  return new Promise((ok, fail) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: init.method ?? 'GET', headers: { host: init.host ?? `127.0.0.1:${port}` } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          body += c;
        });
        res.on('end', () => ok({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body }));
      },
    );
    req.on('error', fail);
    req.end();
  });
}

describe('loopscope lab: the server', () => {
  let server: LabServer;
  let embedded: string;
  beforeAll(async () => {
    embedded = labFilesElement(readLabFiles([myScenario, traceFile]));
    server = await startLabServer({ labDir, host: '127.0.0.1', port: 0, embedded });
  });
  afterAll(async () => {
    await server.close();
  });

  it('serves the lab with the right types, index.html with the files in it', async () => {
    const page = await get(server.port, '/');
    expect(page.status).toBe(200);
    expect(page.type).toBe('text/html; charset=utf-8');
    expect(page.body).toContain(`${embedded}\n<div id="root"></div>`);
    expect((await get(server.port, '/index.html?loop=cron')).body).toBe(page.body);
    expect(await get(server.port, '/assets/app.js')).toMatchObject({
      status: 200,
      type: 'text/javascript; charset=utf-8',
      body: 'console.log("lab");\n',
    });
    expect(await get(server.port, '/assets/style.css')).toMatchObject({ status: 200, type: 'text/css; charset=utf-8' });
    expect(await get(server.port, '/assets/app.js', { method: 'HEAD' })).toMatchObject({ status: 200, body: '' });
    expect((await get(server.port, '/assets/app.js', { method: 'POST' })).status).toBe(405);
    expect((await get(server.port, '/nope.js')).status).toBe(404);
  });

  it('refuses every path out of the lab folder (dot-dot, encoded, backslash, a symbolic link) and folders', async () => {
    const paths = [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/%2E%2E%2Fsecret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/..%5csecret.txt',
      '/.%2e/secret.txt',
      '/link/secret.txt',
      '/%2e%2e%2foutside%2fsecret.txt',
      '/assets/',
      '/assets',
      '/link',
      '/%00',
      '/%',
      `/${join(dir, 'secret.txt')}`,
      `//${join(dir, 'secret.txt').slice(1)}`,
    ];
    for (const path of paths) {
      const r = await get(server.port, path);
      expect(r.status, path).toBe(404);
      expect(r.body, path).not.toContain(SECRET);
    }
  });

  it('answers only to a loopback name (a page elsewhere that rebinds its name to 127.0.0.1 reads nothing)', async () => {
    expect((await get(server.port, '/', { host: 'evil.example:80' })).status).toBe(403);
    expect((await get(server.port, '/', { host: `localhost:${server.port}` })).status).toBe(200);
  });

  it("no file's text ends the script element: no `<` inside it, and the JSON reads back the same files", async () => {
    const page = (await get(server.port, '/')).body;
    const element = /<script id="loopscope-lab-files" type="application\/json">([^<]*)<\/script>/.exec(page);
    expect(element, 'the files element, whole, with no < inside').not.toBeNull();
    const files = JSON.parse(element![1]!) as { name: string; kind: string; text: string; id?: string }[];
    expect(files.map((f) => [f.name, f.kind, f.id])).toEqual([
      [myScenario, 'scenario', 'my-flapping'],
      [traceFile, 'trace', undefined],
    ]);
    expect(files[0]!.text).toBe(readFileSync(myScenario, 'utf8'));
    expect(files[0]!.text).toContain(HOSTILE_DESCRIPTION);
    expect(page.match(/<script/g)).toHaveLength(2);
  });

  it('the URL opens the first file: a scenario by its loop and name, a trace by its number', () => {
    expect(firstFileParams(readLabFiles([myScenario])).toString()).toBe('loop=incus-hpa&scenario=my-flapping');
    expect(firstFileParams(readLabFiles([traceFile, myScenario])).toString()).toBe('trace=0');
    expect(firstFileParams([]).toString()).toBe('');
  });
});

/** `cli/loopscope lab …` as a process: its one line, or its stderr if it ends first. */
function startCli(args: string[]): { child: ChildProcess; line: Promise<string>; exit: Promise<number | null> } {
  const child = spawn(join(ROOT, 'cli/loopscope'), ['lab', ...args], {
    cwd: dir,
    env: { ...process.env, LOOPSCOPE_LAB_DIR: labDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const exit = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
  const line = new Promise<string>((ok, fail) => {
    createInterface({ input: child.stdout! }).once('line', ok);
    void exit.then((code) => fail(new Error(`loopscope lab ended (exit ${code}) before printing its URL: ${stderr}`)));
  });
  return { child, line, exit };
}

describe('loopscope lab: the command', () => {
  it('prints one line, the URL with presenter and language, serves until SIGINT, then exits 0', async () => {
    const cli = startCli(['my-flapping.yaml', 'talk-lab.trace.json', '--port', '0', '--presenter', '--lang', 'pt-BR']);
    try {
      const line = await cli.line;
      expect(line).toMatch(/^lab: http:\/\/127\.0\.0\.1:\d+\/\?loop=incus-hpa&scenario=my-flapping&presenter=1&lang=pt-BR$/);
      const port = Number(new URL(line.slice('lab: '.length)).port);
      const page = await get(port, '/');
      // Named as given on the command line (relative to where it ran).
      expect(page.body).toContain('"name":"my-flapping.yaml","kind":"scenario"');
      expect(page.body).toContain('"name":"talk-lab.trace.json","kind":"trace"');
    } finally {
      cli.child.kill('SIGINT');
    }
    expect(await cli.exit).toBe(0);
  }, 60_000);

  it('without --port: 5174, or any free port when another program holds it', async () => {
    const holder = createServer();
    // Held here whether or not something else already holds it (then the listen fails, and it is held anyway).
    await new Promise<void>((ok) => {
      holder.once('error', () => ok());
      holder.listen(5174, '127.0.0.1', ok);
    });
    const cli = startCli([]);
    try {
      const line = await cli.line;
      expect(line).toMatch(/^lab: http:\/\/127\.0\.0\.1:\d+\/$/);
      const port = Number(new URL(line.slice('lab: '.length)).port);
      expect(port).not.toBe(5174);
      expect((await get(port, '/')).body).toBe(INDEX);
    } finally {
      cli.child.kill('SIGTERM');
      holder.close();
    }
    expect(await cli.exit).toBe(0);
  }, 60_000);
});
