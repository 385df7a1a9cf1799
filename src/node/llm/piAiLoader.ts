/**
 * Loads the pi-ai chunk (`dist/pi-ai.js`, built from `piAiModule.ts`) on first use. Activation never
 * touches it: only a summarizer call or a model listing pays for the several megabytes of pi-ai.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type * as PiAiModule from './piAiModule';
import { errorMessage } from '../../shared/errorMessage';

export type PiAi = typeof PiAiModule;

/** Returns the pi-ai module, requiring it the first time it is called. */
export type PiAiLoader = () => PiAi;

export const PI_AI_CHUNK_FILE = 'pi-ai.js';

/** `distDir` is the folder holding the built chunk: `<extensionPath>/dist`, or the repo's `dist/` in tests. */
export function createPiAiLoader(distDir: string): PiAiLoader {
	const chunkPath = join(distDir, PI_AI_CHUNK_FILE);
	let loaded: PiAi | undefined;
	return () => {
		if (!loaded) {
			try {
				loaded = createRequire(chunkPath)(chunkPath) as PiAi;
			} catch (error) {
				const reason = errorMessage(error);
				throw new Error(`Could not load the pi-ai chunk at ${chunkPath}: ${reason}`, { cause: error });
			}
		}
		return loaded;
	};
}
