/**
 * Entry point of the lazily loaded pi-ai chunk (`dist/pi-ai.js`). pi-ai is ESM-only and several
 * megabytes, so it is bundled on its own (CJS) and `require`d on first use by `piAiLoader.ts`.
 * Re-exports exactly the pi-ai functions the extension calls; nothing else imports pi-ai at run time.
 */
export {
	calculateCost,
	clampThinkingLevel,
	getEnvApiKey,
	getModels,
	getProviders,
	getSupportedThinkingLevels,
	stream,
} from '@mariozechner/pi-ai';
export { getOAuthProvider } from '@mariozechner/pi-ai/oauth';
