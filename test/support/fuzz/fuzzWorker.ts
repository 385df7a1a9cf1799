/**
 * Fuzz worker, run as its own Node process by `fuzzRunner.ts` so that a hang or a crash of the code
 * under test can be cut off by a watchdog and pinned to its seed. For each request it builds the
 * mutant of that seed, writes it into the run's folder and runs every read path on it.
 *
 * Protocol (IPC): receives `FuzzRequest`, answers `FuzzReply`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Random } from '../random';
import { checkReadPaths, type ReadPathReport } from './readPathChecks';
import { SessionCorpus } from './sessionCorpus';
import { mutateSession, type Mutant } from './sessionMutator';

export interface FuzzRequest {
	readonly seed: number;
	readonly dir: string;
	readonly hugeLineBytes?: number;
	/** Makes the worker hang or die on this request, to prove the watchdog catches both. */
	readonly simulate?: 'hang' | 'crash';
}

export type FuzzReply = {
	readonly seed: number;
	readonly file: string;
	readonly source: string;
	readonly mutations: readonly string[];
	readonly size: number;
} & ({ readonly report: ReadPathReport } | { readonly error: string });

const corpus = SessionCorpus.load();

async function handle(request: FuzzRequest): Promise<FuzzReply> {
	if (request.simulate === 'crash') {
		process.exit(70);
	}
	while (request.simulate === 'hang') {
		// A synchronous loop: only the watchdog's SIGKILL ends it.
	}
	const file = join(request.dir, `mutant-${request.seed}.jsonl`);
	let mutant: Mutant;
	try {
		mutant = mutateSession(corpus, request.seed, { hugeLineBytes: request.hugeLineBytes });
		writeFileSync(file, mutant.bytes);
	} catch (error) {
		return { seed: request.seed, file, source: '?', mutations: [], size: 0, error: `making the mutant failed: ${describeError(error)}` };
	}
	const base = { seed: request.seed, file, source: mutant.source, mutations: mutant.mutations, size: mutant.bytes.length };
	try {
		return { ...base, report: await checkReadPaths(file, new Random(request.seed ^ 0x5bd1e995)) };
	} catch (error) {
		return { ...base, error: describeError(error) };
	}
}

function describeError(error: unknown): string {
	return error instanceof Error ? error.stack ?? error.message : String(error);
}

process.on('message', (request: FuzzRequest) => {
	void handle(request).then((reply) => process.send?.(reply));
});
process.send?.({ ready: true });
