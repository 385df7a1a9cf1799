/**
 * Entry point of the lazily loaded pi-ai chunk (`dist/pi-ai.js`): the pi-ai bundled with Pi Condense
 * (`@earendil-works/pi-ai`, today's release), used when the installed Pi's own cannot be
 * (`library/piAiSource.ts`). pi-ai is ESM-only and several megabytes, so it is bundled on its own (CJS)
 * and `require`d on first use. Exports exactly what `library/modelsLibrary.ts` calls.
 */
import { registerLazyOAuthFlows } from '@earendil-works/pi-ai/lazy-oauth';

export { calculateCost, clampThinkingLevel, createModels, PI_AI_VERSION } from '@earendil-works/pi-ai';
export { getApiProvider } from '@earendil-works/pi-ai/compat';
export { builtinProviders, getBuiltinModelDataGeneratedAt } from '@earendil-works/pi-ai/providers/all';

/** pi-ai reaches Bedrock's SDK through an import a bundle cannot follow, and the SDK is left out of this one. */
export const unsupportedApis: ReadonlySet<string> = new Set(['bedrock-converse-stream']);

// pi-ai loads its OAuth flows through an import a bundle cannot follow; this registers them with plain
// imports, so refreshing a login works from the bundle.
registerLazyOAuthFlows();
