/**
 * pi-ai 0.7x (`@mariozechner/pi-ai`, the library of Pi 0.73) as a `ModelLibrary`: its global catalog
 * functions, with Pi 0.73's rules for models.json (`modelCatalog.ts`) and credentials (`credentials.ts`).
 * Only a user's installed Pi of that age brings one; the bundled pi-ai is of the current generation.
 * Pi 0.73 refreshed OAuth logins itself with this generation; here an expired one is reported instead.
 */
import type { AssistantMessageEventStream } from '@earendil-works/pi-ai';
import type { Usage } from '../../../engine/session';
import { readAuthFile } from '../authFile';
import { credentialSource, resolveRequestAuth } from '../credentials';
import { findModel, loadModelCatalog, type PiModel } from '../modelCatalog';
import type { LegacyPiAi } from './legacyPiAi';
import type { LibraryModel, ModelLibrary, PiAiOrigin } from './modelLibrary';

const asPiModel = (model: LibraryModel): PiModel => model as unknown as PiModel;

export function legacyLibrary(piAi: LegacyPiAi, origin: PiAiOrigin): ModelLibrary {
	return {
		origin,
		async openCatalog(agentDir) {
			const auth = await readAuthFile(agentDir);
			const catalog = await loadModelCatalog(piAi, agentDir, auth);
			return {
				models: catalog.models,
				modelsJsonPath: catalog.modelsJsonPath ?? '',
				modelsJsonProblem: catalog.modelsJsonProblem,
				notes: auth.problem ? [auth.problem] : [],
				find: (provider, id) => findModel(catalog, provider, id),
				credentialSource: (provider) => Promise.resolve(credentialSource(provider, { piAi, catalog, auth })),
				requestAuth: (model, options) => resolveRequestAuth(asPiModel(model), { piAi, agentDir, catalog, auth, ...options }),
				unsupported: () => undefined,
				stream: (model, context, options) => piAi.stream(asPiModel(model), {
					messages: context.messages.map((message) => ({ ...message, content: typeof message.content === 'string' ? message.content : [...message.content] })),
				}, options as Parameters<LegacyPiAi['stream']>[2]) as unknown as AssistantMessageEventStream,
				clampThinkingLevel: (model, level) => piAi.clampThinkingLevel(asPiModel(model), level === 'max' ? 'xhigh' : level),
				calculateCost: (model, usage: Usage) => {
					piAi.calculateCost(asPiModel(model), usage);
				},
			};
		},
	};
}
