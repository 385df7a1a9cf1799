/**
 * The real pi-ai chunk for tests: `dist/pi-ai.js` of this checkout, built by `scripts/build.mjs`
 * (which `npm run test:unit` runs first). Mocha runs from the repo root.
 */
import { join } from 'node:path';
import { createPiAiLoader } from '../../src/node/llm/piAiLoader';
import { defaults } from './releases';
import type { SummarizerSettings } from '../../src/node/llm/piAiSummarizer';

export const distDir = join(process.cwd(), 'dist');
export const loadPiAi = createPiAiLoader(distDir);

/** Short timeouts so failing paths stay fast. */
export function testSettings(summarizerModel: string, overrides: Partial<SummarizerSettings> = {}): SummarizerSettings {
	return {
		summarizerModel,
		summarizerThinking: defaults().summarizerThinking,
		summarizerIdleTimeoutMs: 5000,
		summarizerMaxTimeoutMs: 10000,
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
