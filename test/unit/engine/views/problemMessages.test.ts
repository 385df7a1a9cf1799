import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSessionSteps } from '../../../../src/engine/session';
import { readPruneSettings } from '../../../../src/node/settings/readPruneSettings';
import { MAX_LOGGED_PROBLEMS, sessionProblemMessage, settingsProblemMessages } from '../../../../src/engine/views/problemMessages';
import { SessionBuilder } from '../../../support/sessionBuilder';
import { useTempDir } from '../../../support/tempDirs';
import { LATEST } from '../../../support/releases';
import { runSteps } from '../../../../src/engine/steps';

describe('problem messages', () => {
	const temp = useTempDir('problems');

	it('name the settings file and the line of a JSON error', async () => {
		writeFileSync(join(temp(), 'settings.json'), '{\n  "theme": "dark",\n  "contextPrune": { enabled: true }\n}\n');
		const [message, ...rest] = settingsProblemMessages(await readPruneSettings(temp(), LATEST));
		assert.equal(rest.length, 0);
		assert.equal(message?.file, join(temp(), 'settings.json'));
		assert.equal(message?.line, 3);
		assert.match(message?.message ?? '', new RegExp(`^${join(temp(), 'settings.json')} is not valid JSON at line 3`));
	});

	it('say which contextPrune values are invalid, and when contextPrune is not an object', async () => {
		writeFileSync(join(temp(), 'settings.json'), JSON.stringify({ contextPrune: { minBatchChars: -5, pruneOn: 'never' } }));
		const [invalid] = settingsProblemMessages(await readPruneSettings(temp(), LATEST));
		assert.match(invalid?.message ?? '', /^2 contextPrune values are invalid/);
		assert.equal(invalid?.details.length, 2);
		writeFileSync(join(temp(), 'settings.json'), JSON.stringify({ contextPrune: [1] }));
		const messages = settingsProblemMessages(await readPruneSettings(temp(), LATEST));
		assert.match(messages[0]?.message ?? '', /contextPrune in .* is an array, not an object/);
		writeFileSync(join(temp(), 'settings.json'), JSON.stringify({ contextPrune: { enabled: true } }));
		assert.deepEqual(settingsProblemMessages(await readPruneSettings(temp(), LATEST)), []);
	});

	it('name the session file and the first unreadable line', () => {
		const builder = new SessionBuilder();
		builder.user('hi');
		builder.rawLine('{"type":"message", broken');
		builder.rawLine('also broken');
		const problem = sessionProblemMessage('/s/a.jsonl', runSteps(parseSessionSteps(builder.text())));
		assert.match(problem?.message ?? '', /^\/s\/a\.jsonl:3: not valid JSON .* \(and 1 more problem, listed under Problems in Pruned Calls\)$/);
		assert.equal(problem?.line, 3);
		const clean = new SessionBuilder();
		clean.user('fine');
		assert.equal(sessionProblemMessage('/s/b.jsonl', runSteps(parseSessionSteps(clean.text()))), undefined);
	});

	it('log at most MAX_LOGGED_PROBLEMS of a damaged file\'s problems, and say how many more there are', () => {
		const builder = new SessionBuilder();
		builder.user('hi');
		for (let i = 0; i < MAX_LOGGED_PROBLEMS + 50; i++) {
			builder.rawLine(`broken ${i}`);
		}
		const problem = sessionProblemMessage('/s/c.jsonl', runSteps(parseSessionSteps(builder.text())));
		assert.equal(problem?.details.length, MAX_LOGGED_PROBLEMS + 1);
		assert.match(problem?.details[0] ?? '', /^\/s\/c\.jsonl:3: not valid JSON/);
		assert.equal(problem?.details.at(-1), '… and 50 more (all of them under Problems in Pruned Calls)');
	});
});
