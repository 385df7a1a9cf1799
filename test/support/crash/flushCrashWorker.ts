/**
 * The process the flush crash harness kills: runs `flushSession` (`now` or `compact`) on a session
 * file against the fake LLM server named in the agent dir, pausing after each line it writes.
 * Prints `W` when the first line is about to be written and `D<outcome kind>` when done.
 * Usage: node out/test/support/crash/flushCrashWorker.js <request JSON>
 */
import { bundledLoader } from '../piAiForTests';
import { inProcessSummarizers } from '../../../src/node/llm/defaultSummarizer';
import { writeSync } from 'node:fs';
import { flushSession } from '../../../src/node/flush/flushSession';
import { FLUSH_CRASH_CONFIG, type FlushCrashRequest } from './flushCrashPlan';
import { WRITER_RELEASE } from '../releases';
import { testWork } from '../testWork';

const request = JSON.parse(process.argv[2] ?? '{}') as FlushCrashRequest;
const pause = new Int32Array(new SharedArrayBuffer(4));

flushSession(testWork, {
	sessionPath: request.path,
	agentDir: request.agentDir,
	mode: request.mode,
	config: FLUSH_CRASH_CONFIG,
	rules: WRITER_RELEASE,
	summarizers: inProcessSummarizers(bundledLoader(request.distDir)),
	writeOptions: {
		quietMs: 0,
		maxWaitMs: 0,
		checkPiHolders: () => Promise.resolve({ checked: true, holders: [] }),
		hooks: {
			afterLastCheck: () => writeSync(1, 'W'),
			afterLine: () => Atomics.wait(pause, 0, 0, request.pauseMs),
		},
	},
}).then((outcome) => {
	writeSync(1, `D${outcome.kind}`);
}, (error: unknown) => {
	writeSync(2, error instanceof Error ? error.stack ?? error.message : String(error));
	process.exitCode = 1;
});
