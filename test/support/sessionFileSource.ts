/**
 * Test-only `SessionFeed` on a session file and a Pi agent dir, with no VS Code: reads the file
 * and `contextPrune` from `<agentDir>/settings.json` with the project's own readers, recovers with
 * the engine, and writes settings with the project's settings writer. `reload()` re-reads both
 * and fires the change event, as the session controller does when the file grows.
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type * as vscode from 'vscode';
import { buildCondenseStateSteps, recoverOutputs } from '../../src/engine/condense';
import { setConfigKeys } from '../../src/engine/config/setConfigKey';
import { releaseDefaults } from '../../src/engine/config/defaults';
import { effectiveConfig } from '../../src/engine/config/effectiveConfig';
import { contentText } from '../../src/engine/condense/occurrence';
import { buildSessionContextSteps, getBranchSteps, parseSessionSteps } from '../../src/engine/session';
import type { SessionModel } from '../../src/engine/session/model';
import type { ModelFacts } from '../../src/node/llm/modelPricing';
import type { FollowedRelease, ShownSession, SessionFeed } from '../../src/host/preview/sessionFeed';
import { sessionBlobReader } from '../../src/node/condense/sessionBlobReader';
import { readPruneSettings } from '../../src/node/settings/readPruneSettings';
import { updatePruneSettings } from '../../src/node/settings/updatePruneSettings';
import type { ReleaseRules } from '../../src/engine/release/releases';
import type { PageActions } from '../../src/engine/views/pageActions';
import { runSteps } from '../../src/engine/steps';
import { CostsLedger } from '../../src/engine/costs';
import { SessionInsight, type PreparedInsight } from '../../src/engine/views/sessionInsight';
import { statusLineText } from '../../src/engine/views/statusLine';

export class SessionFileSource implements SessionFeed {
	private session: ShownSession | undefined;
	private readonly listeners = new Set<() => void>();
	/** Refs passed to `openRecovered`, in order. */
	readonly opened: string[] = [];
	/** Every `applyPruneSettings` call. */
	readonly applied: { key: string; value: unknown }[][] = [];
	/** How many times the page's Compact button asked for `compact`. */
	compactRequests = 0;
	/** How many times the page's Summarize now button asked for `now`. */
	summarizeRequests = 0;
	/** The page's buttons as the session's state makes them (set before `reload()`); all enabled when undefined. */
	actions: PageActions | undefined;

	/** What the header says about the release; set before `reload()` to show another (e.g. not installed). */
	followed: FollowedRelease;

	/**
	 * `rules`: the pi-condense release the session is rendered as. With `derive`, each reload also
	 * prepares the session's insight (its state) and hands it to the preview, as the extension does
	 * for the selected session before its preview opens.
	 */
	constructor(readonly path: string, readonly agentDir: string, readonly rules: ReleaseRules, private readonly pricing?: ModelFacts, private readonly derive = false) {
		this.followed = { line: `pi-condense ${rules.version} (test source)`, installed: true };
	}

	readonly onDidChangeSession: vscode.Event<void> = (listener, thisArgs, disposables) => {
		const bound = (): void => void listener.call(thisArgs);
		this.listeners.add(bound);
		const disposable = { dispose: () => this.listeners.delete(bound) };
		disposables?.push(disposable);
		return disposable;
	};

	/** Reads the session file and the settings again, then tells the listeners. */
	async reload(): Promise<void> {
		const model = runSteps(parseSessionSteps(await readFile(this.path, 'utf8')));
		const settings = await readPruneSettings(this.agentDir, this.rules);
		// Without pi-condense, Pi sends its own context: as the controller does, pruning is then off.
		const config = this.followed.installed ? settings.config : effectiveConfig(settings.config, { kind: 'not-installed', searched: [], warnings: [] });
		let derived: SessionInsight | undefined;
		let prepared: PreparedInsight | undefined;
		if (this.derive) {
			derived = new SessionInsight(model, config, settings.rules);
			prepared = runSteps(derived.prepare());
		}
		this.session = {
			path: this.path,
			title: model.name ?? firstPrompt(model) ?? basename(this.path, '.jsonl'),
			model,
			config,
			rules: settings.rules,
			followed: this.followed,
			blobs: sessionBlobReader(this.path, model.header?.id ?? ''),
			// As the store keeps it for an open session: the Costs panel's first paint.
			costs: runSteps(CostsLedger.empty().extendSteps(model.entries)),
			...(derived ? { derived } : {}),
			...(this.actions ? { actions: this.actions } : {}),
			// As the extension's source says it: the status bar's text, from the views' insight.
			...(prepared ? { statusLine: statusLineText(settings.config, prepared, false, this.followed.installed) } : {}),
		};
		for (const listener of this.listeners) {
			listener();
		}
	}

	current(): ShownSession | undefined {
		return this.session;
	}

	async recover(refs: readonly string[]): Promise<string> {
		const session = this.session;
		if (!session) {
			return '';
		}
		const state = runSteps(buildCondenseStateSteps(runSteps(getBranchSteps(session.model)), session.rules));
		return (await recoverOutputs(state, refs, session.blobs)).text;
	}

	openRecovered(ref: string): Promise<void> {
		this.opened.push(ref);
		return Promise.resolve();
	}

	modelPricing(provider: string, modelId: string): Promise<ModelFacts | undefined> {
		const pricing = this.pricing;
		return Promise.resolve(pricing && { ...pricing, provider, modelId });
	}

	compact(): Promise<void> {
		this.compactRequests++;
		return Promise.resolve();
	}

	summarizeNow(): Promise<void> {
		this.summarizeRequests++;
		return Promise.resolve();
	}

	async applyPruneSettings(changes: ReadonlyArray<{ readonly key: string; readonly value: unknown }>): Promise<void> {
		this.applied.push(changes.map((change) => ({ ...change })));
		await updatePruneSettings(this.agentDir, (current) => setConfigKeys(current, changes, releaseDefaults(this.rules)));
		await this.reload();
	}
}

/** The first user message, shortened: what Pi's session list shows for an unnamed session. */
function firstPrompt(model: SessionModel): string | undefined {
	const first = runSteps(buildSessionContextSteps(model)).messages.find((message) => message.role === 'user');
	const text = first?.role === 'user' ? contentText(first.content).replace(/\s+/g, ' ').trim() : '';
	return text === '' ? undefined : text.length > 60 ? `${text.slice(0, 59)}…` : text;
}
