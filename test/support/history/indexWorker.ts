/**
 * A process that uses the session index as a VS Code window would, for the reliability tests that
 * run several at once (`node out/test/support/history/indexWorker.js <json>`), on whichever Node
 * runs it (Node 22+: node:sqlite; Node 20: SQLite in WebAssembly):
 *   mode "append": `rounds` times, appends a user and an assistant line with a word of its own to one
 *     of its files and tells the index (the watcher's call), refreshes the whole folder every third
 *     round and searches its last word; prints {"engine", "words": [...]} at the end.
 *   mode "build": refreshes the folder with small batches, printing "wrote <n>" after each file (the
 *     test kills it with SIGKILL part way).
 *   mode "hold": deletes every session in a write transaction, prints "holding" and never ends it (the
 *     thread spins, so the cross-process lock goes stale as a killed holder's would; the test kills it).
 */
import { appendFileSync, writeSync } from 'node:fs';
import { HistoryIndex } from '../../../src/node/history/historyIndex';
import { searchHistory } from '../../../src/node/history/historySearch';
import type { SqlEngineChoice } from '../../../src/node/history/sqlite/openSqlite';
import { testWork } from '../testWork';
import { assistantLine, distDir, sessionsRoot, userLine } from './indexKit';

interface WorkerArgs {
	readonly mode: 'append' | 'build' | 'hold';
	readonly index: string;
	readonly agentDir: string;
	readonly engine: SqlEngineChoice;
	readonly name: string;
	readonly files: readonly string[];
	readonly rounds: number;
}

async function main(): Promise<void> {
	const args = JSON.parse(process.argv[2] ?? '{}') as WorkerArgs;
	const index = await HistoryIndex.open({
		path: args.index, ownFolder: false, engine: args.engine, distDir, slices: testWork,
		batchBytes: args.mode === 'build' ? 32 * 1024 : undefined,
		notify: (notice) => process.stderr.write(`notice: ${JSON.stringify(notice)}\n`),
	});
	if (!index) {
		throw new Error('the index is off');
	}
	const root = sessionsRoot(args.agentDir);
	if (args.mode === 'hold') {
		await index.db.write((db) => {
			db.exec('DELETE FROM sessions');
			writeSync(1, 'holding\n');
			for (;;) {
				// held until killed
			}
		});
		return;
	}
	if (args.mode === 'build') {
		let files = 0;
		await index.refresh([root], { onProgress: (progress) => {
			if (progress.filesDone > files) {
				files = progress.filesDone;
				process.stdout.write(`wrote ${files}\n`);
			}
		} });
		process.stdout.write('done\n');
		await index.close();
		return;
	}
	const words: string[] = [];
	for (let round = 0; round < args.rounds; round++) {
		const file = args.files[round % args.files.length] as string;
		const word = `w${args.name}x${round}z`;
		const time = Date.UTC(2026, 0, 1) + round * 1000;
		appendFileSync(file, userLine(`u${args.name}${round}`, `question ${round} of ${args.name}`, time) + assistantLine(`a${args.name}${round}`, `answer with ${word}`, time + 1, round + 1));
		await index.fileChanged(file, root);
		words.push(word);
		if (round % 3 === 2) {
			await index.refresh([root]);
			const found = await searchHistory(index, word);
			if (found.length !== 1) {
				throw new Error(`${word}: found in ${found.length} sessions right after it was indexed`);
			}
		}
	}
	const engine = index.engine;
	await index.close();
	process.stdout.write(`${JSON.stringify({ engine, words })}\n`);
}

main().catch((error: unknown) => {
	process.stderr.write(`${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
	process.exit(1);
});
