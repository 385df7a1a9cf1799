/**
 * Before Summarize Now and Compact write anything: a modal that says what will happen (the session,
 * the batches and their estimated reclaim, the chains, the model that will summarize and where its
 * key comes from) and, when there is no key, offers "Set up a key…" or "Summarize offline" instead
 * of writing extractive summaries silently. Skipped when `piCondense.confirmPrune` is off.
 */
import { errorMessage } from '../../base/errorMessage';
import type { SummarizerPlanner } from '../../node/llm/worker/piAiWorker';
import type { FlushMode } from '../../engine/flush';
import type { SessionController } from '../sessionController';
import { showInfo, showWarning } from '../ui/safeUi';
import { confirmation, GO_AHEAD, SET_UP_KEY, type PruneFacts } from './prunePlanText';
import { setUpKey } from './setUpKey';
import { pruneNowCacheText } from '../statusBar/pruneNowCache';
import type { SetUpKeys } from './setUpKeys';

export interface ConfirmDeps {
	readonly controller: SessionController;
	readonly planSummarizer: SummarizerPlanner;
	/** Where "Set up a key…" saves a key. */
	readonly keys: SetUpKeys;
	/** The question and the answer are logged (what the user was told before anything was written). */
	readonly log: (message: string) => void;
}

/** Rounds of "Set up a key…" before the dialog stops asking again. */
const MAX_ROUNDS = 3;

/** Resolves true when the user chose to go ahead. */
export async function confirmPrune(mode: FlushMode, path: string, deps: ConfirmDeps): Promise<boolean> {
	const agentDir = deps.controller.discovery.locations?.agentDir;
	if (agentDir === undefined) {
		return true; // the flush refuses and says why
	}
	for (let round = 0; round < MAX_ROUNDS; round++) {
		const started = Date.now();
		deps.log(`${mode} on ${path}: working out what to ask (the batches, the chains, the summarizer and its key)`);
		const facts = await pruneFacts(mode, path, agentDir, deps);
		deps.log(`${mode} on ${path}: the question is ready (${Date.now() - started} ms)`);
		const shown = confirmation(facts);
		const options = { modal: true, detail: shown.detail };
		deps.log(`asked before ${mode}: ${shown.message} ${shown.detail.replace(/\n+/g, ' ')} [${shown.actions.join(' | ')}]`);
		// A dialog VS Code refuses to show (an extension test run's workbench does) is a "no".
		const choice = await (shown.offline ? showWarning(shown.message, options, ...shown.actions) : showInfo(shown.message, options, ...shown.actions)).catch((error: unknown) => {
			deps.log(`the question could not be shown: ${errorMessage(error)}`);
			return undefined;
		});
		deps.log(`answered: ${choice ?? 'Cancel'}`);
		if (choice === SET_UP_KEY) {
			const plan = facts.summarizer;
			const provider = plan.kind === 'offline' || plan.kind === 'no-credentials' ? plan.provider : undefined;
			const envVars = plan.kind === 'offline' || plan.kind === 'no-credentials' ? plan.envVars : [];
			if (!await setUpKey({ agentDir, provider, envVars, keys: deps.keys })) {
				return false;
			}
			continue;
		}
		return choice !== undefined && GO_AHEAD.includes(choice);
	}
	return false;
}

/** What the flush would do (a dry run of it, in slices, kept with the session's insight) and the pi-ai worker's plan. */
export async function pruneFacts(mode: FlushMode, path: string, agentDir: string, deps: ConfirmDeps): Promise<PruneFacts> {
	const { controller } = deps;
	const settings = controller.renderSettingsFor(path);
	const insight = await controller.insightFor(path);
	const estimate = await controller.flushEstimateFor(path, mode);
	const model = insight.context.model;
	return {
		mode,
		title: controller.titleOf(path),
		release: settings.rules.version,
		estimate,
		rollingWindow: settings.configured.chainCompression.rollingWindow,
		summarizer: await deps.planSummarizer(agentDir, settings.configured.summarizerModel, model ? { provider: model.provider, modelId: model.modelId } : undefined),
		cache: pruneNowCacheText(controller, path, Date.now(), estimate.reclaimChars),
	};
}
