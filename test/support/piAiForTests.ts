/**
 * The real pi-ai chunk for tests: `dist/pi-ai.js` of this checkout, built by `scripts/build.mjs`
 * (which `npm run test:unit` runs first), the bundled pi-ai the extension falls back to. Mocha runs from
 * the repo root. `legacyPiAi` is pi-ai 0.7x itself (the devDependency `@mariozechner/pi-ai` 0.73.1), for the
 * rules of a Pi 0.73 (`installedPi.ts` finds it as a user's installed Pi).
 */
import { join } from 'node:path';
import type { LegacyPiAi } from '../../src/node/llm/library/legacyPiAi';
import type { PiAiLoader } from '../../src/node/llm/library/modelLibrary';
import { createPiAiLoader, type InstalledPiAiPolicy } from '../../src/node/llm/piAiLoader';
import { defaults } from './releases';
import type { SummarizerSettings } from '../../src/node/llm/piAiSummarizer';

export const distDir = join(process.cwd(), 'dist');
/** The policy of the tests that want the bundled pi-ai only (the worker's questions carry it too). */
export const BUNDLED_ONLY: InstalledPiAiPolicy = { allowed: false, reason: 'the tests use the bundled pi-ai' };

/** A loader of the bundled pi-ai only (the one in `dir`, this checkout's `dist/` by default). */
export function bundledLoader(dir: string = distDir): PiAiLoader {
	return createPiAiLoader({ distDir: dir, installed: BUNDLED_ONLY });
}

export const loadPiAi = bundledLoader();

/** pi-ai 0.73.1's own module (its entry and its `oauth` entry), as a Pi 0.73 install brings it. */
export async function legacyPiAi(): Promise<LegacyPiAi> {
	const [index, oauth] = await Promise.all([import('@mariozechner/pi-ai'), import('@mariozechner/pi-ai/oauth')]);
	return { ...oauth, ...index };
}

/**
 * No time limit unless the case is about one (it sets its own): a loaded machine's pause must not turn
 * an answer into a timeout. A call that never ends fails by the test's own timeout.
 */
export function testSettings(summarizerModel: string, overrides: Partial<SummarizerSettings> = {}): SummarizerSettings {
	return {
		summarizerModel,
		summarizerThinking: defaults().summarizerThinking,
		summarizerIdleTimeoutMs: 0,
		summarizerMaxTimeoutMs: 0,
		...overrides,
	};
}

/** Asserts `promise` rejects with a SummarizerError of `kind`; returns the error for more checks. */
export async function rejectsWithKind(promise: Promise<unknown>, kind: string): Promise<Error & { kind: string }> {
	try {
		await promise;
	} catch (error) {
		const failure = error as Error & { kind?: string };
		if (failure.name !== 'SummarizerError' || failure.kind !== kind) {
			throw new Error(`expected SummarizerError(${kind}), got ${failure.name}(${failure.kind ?? '-'}): ${failure.message}`, { cause: error });
		}
		return failure as Error & { kind: string };
	}
	throw new Error(`expected SummarizerError(${kind}), but the promise resolved`);
}
