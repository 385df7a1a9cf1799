#!/usr/bin/env node
// `npm run test:repeat -- <stage>... [count]`: builds once, then runs each named stage of `npm test` `count`
// times in a row (default 20), one run at a time, and goes on after a failure so that the count is honest.
// Each run's output is kept in .test-repeat/<stage>-<n>.log (a failed run's also says so on screen);
// prints one line per run and, at the end, passed/failed per stage. Exits 1 when any run failed.
//   npm run test:repeat -- ui 20
//   npm run test:repeat -- ui ui-oldest ui-hostile ui-hostile-oldest start vsix vsix-oldest 20
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildFor, checkSystem, codeServersFor, parseStages, root, STAGES } from './stages.mjs';
import { TestRun } from './testRun.mjs';

const say = (message) => console.log(`[repeat] ${message}`);

function parseArgs(argv) {
	const last = argv.at(-1);
	const count = last !== undefined && /^\d+$/.test(last) ? Number(last) : 20;
	const names = /^\d+$/.test(last ?? '') ? argv.slice(0, -1) : argv;
	if (names.length === 0 || count < 1) {
		throw new Error('usage: npm run test:repeat -- <stage>... [count]');
	}
	return { names: [...parseStages(names)], count };
}

async function main() {
	const { names, count } = parseArgs(process.argv.slice(2));
	checkSystem(new Set(names));
	const build = buildFor(new Set(names));
	const run = new TestRun({ cwd: root, stages: STAGES, prebuilt: Boolean(build), codeServers: codeServersFor(new Set(names)) });
	if (build) {
		await run.stage('build', { command: build }, { live: true });
	}
	if (run.failed || !run.setUp(names)) {
		return 1;
	}
	await run.codeServerSetup(names, { live: true });
	if (run.failed) {
		return 1;
	}
	const logs = join(root, '.test-repeat');
	rmSync(logs, { recursive: true, force: true });
	mkdirSync(logs, { recursive: true });
	const tally = new Map(names.map((name) => [name, { passed: 0, failed: [] }]));
	for (const name of names) {
		for (let n = 1; n <= count; n++) {
			const since = Date.now();
			const { code, output } = await run.spawn(STAGES[name].command, run.envOf(name), true);
			const log = join(logs, `${name}-${n}.log`);
			writeFileSync(log, output);
			const seconds = ((Date.now() - since) / 1000).toFixed(1);
			if (code === 0) {
				tally.get(name).passed++;
				say(`${name} ${n}/${count}: ok (${seconds} s)`);
			} else {
				tally.get(name).failed.push(n);
				say(`${name} ${n}/${count}: FAILED (${seconds} s), output in ${log}`);
				console.log(output.split('\n').filter((line) => /FAILED|Error|failing|✗|[0-9]+\) /.test(line)).slice(0, 12).join('\n'));
			}
		}
	}
	say('── counts');
	for (const [name, { passed, failed }] of tally) {
		say(`${name.padEnd(20)} ${passed}/${count} passed${failed.length > 0 ? `, failed runs: ${failed.join(', ')}` : ''}`);
	}
	return [...tally.values()].some(({ failed }) => failed.length > 0) ? 1 : 0;
}

main().then((code) => {
	process.exitCode = code;
}, (error) => {
	console.error(`[repeat] ${error.message}`);
	process.exitCode = 1;
});
