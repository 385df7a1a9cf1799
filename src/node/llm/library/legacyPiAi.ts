/**
 * The functions of pi-ai 0.7x (`@mariozechner/pi-ai`, the library of Pi 0.73) that are used, from its
 * entry and its `oauth` entry: what `legacyLibrary.ts`, `modelCatalog.ts` and `credentials.ts` are
 * handed. Types only.
 */
import type * as LegacyIndex from '@mariozechner/pi-ai';
import type * as LegacyOAuth from '@mariozechner/pi-ai/oauth';

export type LegacyPiAi =
	Pick<typeof LegacyIndex, 'calculateCost' | 'clampThinkingLevel' | 'getEnvApiKey' | 'getModels' | 'getProviders' | 'stream'>
	& Pick<typeof LegacyOAuth, 'getOAuthProvider'>;
