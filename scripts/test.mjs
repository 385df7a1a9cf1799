#!/usr/bin/env node
// `npm test` and every `npm run test:<stage>`: builds once, runs the stages, and prints the time of each and
// the total. Stops at the first stage that fails.
//   node scripts/test.mjs                 every stage (npm test)
//   node scripts/test.mjs unit browser    those stages only, after the build they need
// Chromium and code-server are checked at once (a missing system package that only root may install stops
// the run before anything else, naming the packages) and installed right before the first stage needing them.
import { buildFor, checkSystem, codeServersFor, parseStages, root, STAGES, STATIC_LANE, STEPS } from './stages.mjs';
import { TestRun } from './testRun.mjs';

async function main() {
	const names = parseStages(process.argv.slice(2));
	checkSystem(names);
	const build = buildFor(names);
	const run = new TestRun({ cwd: root, stages: STAGES, prebuilt: Boolean(build), codeServers: codeServersFor(names) });
	const staticChecks = run.lane(STATIC_LANE.filter((name) => names.has(name)), { live: false });
	if (build) {
		await run.stage('build', { command: build }, { live: true });
	}
	for (const step of STEPS) {
		const lanes = step.map((lane) => lane.filter((name) => names.has(name))).filter((lane) => lane.length > 0);
		if (run.failed || lanes.length === 0 || !run.setUp(lanes.flat())) {
			continue;
		}
		await Promise.all(lanes.map((lane, index) => run.laneWithSetup(lane, { live: index === 0 })));
	}
	await staticChecks;
	run.report();
	return run.failed ? 1 : 0;
}

main().then((code) => {
	process.exitCode = code;
}, (error) => {
	console.error(`[test] ${error.message}`);
	process.exitCode = 1;
});
