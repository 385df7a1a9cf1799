/**
 * `pi-condense now` on damaged sessions, as a user runs it: refused before any summarizer call,
 * the file untouched, and the message names the file, the line and what to do.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../support/fuzz/cliRun';
import { createFakeAgentDir, type FakeAgentDir } from '../support/fakeAgentDir';
import { toolSession } from '../support/flushFixtures';
import { realSessionsDir } from '../support/paths';
import { TempDir } from '../support/tempSession';

interface Damage {
	readonly name: string;
	readonly text: () => string;
	readonly stdout: RegExp;
	readonly advice: RegExp;
}

const session = (): string => toolSession(1).text();

const DAMAGES: readonly Damage[] = [
	{
		name: 'a line that is not JSON',
		text: () => session().replace(/\n/, '\n{"type":"message", cut\n'),
		stdout: /pruner: nothing flushed — the file has reading problems: line 2: not valid JSON/,
		advice: /Keep a copy of the file, then repair or remove the lines listed/,
	},
	{
		name: 'an unfinished last line',
		text: () => `${session()}{"type":"custom","customType":"context-prune-index","data":{"toolCalls":[`,
		stdout: /unfinished line \(line 7, no final newline\)/,
		advice: /end that line with a newline or delete it \(keep a copy of the file first\)/,
	},
	{
		name: 'a broken header',
		text: () => session().replace('"type":"session"', '"type":"sesion"'),
		stdout: /no valid session header on its first line/,
		advice: /Pi empties such a file when it opens it: keep a copy before resuming it in Pi/,
	},
	{
		name: 'a parent that is not in the file',
		text: () => session().replace(/"parentId":"00000002"/, '"parentId":"deadbeef"'),
		stdout: /line 4: the parentId "deadbeef" does not name an entry above this line/,
		advice: /repair or remove the lines listed/,
	},
	{
		name: 'a version 1 session',
		text: () => readFileSync(join(realSessionsDir, 'large-session.jsonl'), 'utf8'),
		stdout: /the file is a version 1 session; only version 3 files are written to/,
		advice: /Open the session in Pi once/,
	},
];

describe('pi-condense now on damaged sessions', function () {
	this.timeout(60_000);
	let agent: FakeAgentDir;
	let dir: TempDir;

	beforeEach(async () => {
		agent = await createFakeAgentDir({ serverUrl: 'http://127.0.0.1:9', settings: { contextPrune: { enabled: true, summarizerModel: 'fake-llm/fake-model' } } });
		dir = new TempDir();
	});
	afterEach(async () => {
		await agent.cleanup();
		dir.remove();
	});

	for (const damage of DAMAGES) {
		it(`${damage.name}: refused, untouched, with the file, the line and what to do`, async () => {
			const path = dir.file('session.jsonl', damage.text());
			const before = readFileSync(path);
			const out = await runCli(['now', path, '--quiet-ms', '0'], 30_000, { PI_CODING_AGENT_DIR: agent.dir });
			assert.equal(out.code, 1, out.stderr);
			assert.match(out.stdout, damage.stdout);
			assert.ok(out.stderr.includes(`pi-condense: ${path}: `), out.stderr);
			assert.match(out.stderr, damage.advice);
			assert.ok(readFileSync(path).equals(before), 'the file is untouched');
		});
	}
});
