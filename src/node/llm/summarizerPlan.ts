/**
 * Which model a flush's summaries will come from, found before the flush (for the confirmation
 * that says so) and by the flush itself (the same answer, so what was promised is what runs): the
 * configured `provider/id`, or with `summarizerModel: default` the session's own model, each with
 * where its credentials come from; or, with `default` and a session model that cannot be used (no
 * model yet, unknown to the pi-ai in use and models.json, or no credentials), the offline
 * extractive summarizer and why. A configured model without credentials is not replaced by the
 * offline summarizer (its calls fail, naming what to set), and the plan says so. No `!command` key
 * runs and nothing is written (the catalog is opened in `probe` mode).
 */
import { errorMessage } from '../../base/errorMessage';
import { nullLogger, type Logger } from '../../engine/ports';
import type { ContextPruneConfig } from '../../engine/config';
import { describeOrigin, type CredentialSource, type PiAiLoader } from './library/modelLibrary';
import { formatModelRef, parseModelSpec, type ModelRef } from './models';
import { providerEnvVars } from './providerEnvVars';

export type SummarizerPlan =
	/** Summaries by this model, with a credential from `credential`. */
	| { readonly kind: 'model'; readonly model: string; readonly credential: CredentialSource; readonly sessionModel: boolean }
	/** Summaries written offline (extractive, no LLM call); `provider` is the one that lacks a key, when that is why. */
	| { readonly kind: 'offline'; readonly reason: string; readonly model: string | undefined; readonly provider: string | undefined; readonly envVars: readonly string[] }
	/** The configured model has no credentials: its calls fail (nothing is summarized offline in its place). */
	| { readonly kind: 'no-credentials'; readonly model: string; readonly provider: string; readonly envVars: readonly string[] }
	/** The configured model is not known, or pi-ai could not be asked: the flush says why when it runs. */
	| { readonly kind: 'unchecked'; readonly model: string; readonly reason: string };

export interface SummarizerPlanInput {
	readonly loadPiAi: PiAiLoader;
	readonly agentDir: string;
	readonly config: Pick<ContextPruneConfig, 'summarizerModel'>;
	readonly sessionModel: ModelRef | undefined;
	readonly logger?: Logger;
}

export async function planSummarizer(input: SummarizerPlanInput): Promise<SummarizerPlan> {
	const spec = input.config.summarizerModel.trim();
	const configured = spec !== '' && spec !== 'default';
	const ref = configured ? parseModelSpec(spec) : input.sessionModel;
	if (!ref) {
		return configured
			? { kind: 'unchecked', model: spec, reason: `summarizerModel "${spec}" is not "default" or "provider/model-id"` }
			: offline('the session has not chosen a model yet and contextPrune.summarizerModel is "default"', undefined, undefined);
	}
	const name = configured ? spec : formatModelRef(ref);
	try {
		const library = await input.loadPiAi();
		const catalog = await library.openCatalog(input.agentDir, 'probe');
		const rawId = configured ? parseModelSpec(spec)?.rawModelId : undefined;
		if (!catalog.find(ref.provider, ref.modelId) && !(rawId !== undefined && catalog.find(ref.provider, rawId))) {
			const reason = `the session's model ${name} is not known to ${describeOrigin(library.origin)} or models.json`;
			return configured ? { kind: 'unchecked', model: name, reason: `${name} is not known to ${describeOrigin(library.origin)} or models.json` } : offline(reason, name, undefined);
		}
		const credential = await catalog.credentialSource(ref.provider);
		if (credential !== undefined) {
			return { kind: 'model', model: name, credential, sessionModel: !configured };
		}
		return configured
			? { kind: 'no-credentials', model: name, provider: ref.provider, envVars: providerEnvVars(ref.provider) }
			: offline(`no credentials for ${name}, the session's model (contextPrune.summarizerModel is "default")`, name, ref.provider);
	} catch (error) {
		(input.logger ?? nullLogger).warn(`summarizer: could not check the model: ${errorMessage(error)}`);
		return { kind: 'unchecked', model: name, reason: `pi-ai could not be asked: ${errorMessage(error)}` };
	}
}

function offline(reason: string, model: string | undefined, provider: string | undefined): SummarizerPlan {
	return { kind: 'offline', reason, model, provider, envVars: provider === undefined ? [] : providerEnvVars(provider) };
}
