/**
 * Keeps the preview of the selected session up to date for the panel: rebuilds the base (state,
 * previous call) only when the session snapshot or the configuration changed, recomputes the page
 * data for each what-if change, and answers row expansions, searches and reveals from it.
 *
 * Each computation runs in slices (under the page's scope), so a large session never holds the
 * extension host for long, and stops when its signal is aborted (a newer request superseded it).
 *
 * Model prices come from pi-ai, loaded on first use, which can take seconds: the preview never
 * waits for them. Until they are known the cache panel shows tokens only, and `onPricing` asks for
 * a recomputation once they arrive.
 */
import { buildSessionContextSteps, getBranchSteps, type ModelRef } from '../../engine/session';
import { computePreviewSteps, locateTarget, messageBlocks, type PricingInfo, type RowLocation, searchMessagesSteps, type SearchResult, type SnapshotBase, snapshotBaseSteps, whatIfChanges, type WhatIfOverrides, type WhatIfResult } from '../../engine/preview';
import type { Steps } from '../../engine/steps';
import type { SliceRunner } from '../../work';
import type { ViewName } from '../../shared/protocol';
import type { ShownSession, SessionFeed } from './sessionFeed';
import { SnapshotRows, type RowDetail } from './snapshotRows';

export class WhatIfComputer {
	private base: { readonly session: ShownSession; readonly value: SnapshotBase; readonly model: ModelRef | null } | undefined;
	private computation: WhatIfResult | undefined;
	/** The latest computation's rows as the page asks for them; its id names that computation. */
	private shown: SnapshotRows | undefined;
	private lastId = 0;
	/** Prices by `provider/model`; the entry exists from the start of the lookup, its value once known. */
	private readonly prices = new Map<string, { value: PricingInfo | undefined }>();

	constructor(
		private readonly work: SliceRunner,
		private readonly source: SessionFeed,
		private readonly now: () => number = Date.now,
		private readonly onPricing: () => void = () => undefined,
	) {}

	/** The latest computation, if any. */
	get current(): WhatIfResult | undefined {
		return this.computation;
	}

	/** The rows of the latest computation, with its id. */
	get rows(): SnapshotRows | undefined {
		return this.shown;
	}

	get session(): ShownSession | undefined {
		return this.base?.session;
	}

	/**
	 * Computes the preview of the source's current session, in slices; undefined when there is none.
	 * Rejects with `WorkStopped` once `signal` is aborted (the previous computation stays current).
	 */
	async compute(overrides: WhatIfOverrides, signal?: AbortSignal): Promise<WhatIfResult | undefined> {
		const session = this.source.current();
		if (!session) {
			this.base = undefined;
			this.computation = undefined;
			this.shown = undefined;
			return undefined;
		}
		const base = await this.baseFor(session, signal);
		const computation = await this.work.sliced(computePreviewSteps(base, { overrides, pricing: this.pricingFor(), now: this.now() }), signal);
		this.computation = computation;
		this.shown = new SnapshotRows(++this.lastId, computation);
		return computation;
	}

	/** The overrides that still change something against the configured settings. */
	effectiveOverrides(overrides: WhatIfOverrides): WhatIfOverrides {
		const session = this.base?.session ?? this.source.current();
		return session && whatIfChanges(session.config, overrides).length > 0 ? overrides : {};
	}

	/**
	 * Full blocks of the row with this key, with the refs they name; each text cut when the whole row
	 * would not fit one message (see `SnapshotRows.detail`). Undefined when it is not (or no longer) there.
	 */
	async rowDetail(view: ViewName, key: string): Promise<RowDetail | undefined> {
		const shown = this.shown;
		const index = shown?.indexOf(view, key);
		const message = index === undefined ? undefined : this.computation?.views[view][index];
		const argsText = this.base?.value.argsText;
		return message && shown ? this.work.sliced(shown.detailSteps((maxChars) => messageBlocks(message, maxChars, argsText))) : undefined;
	}

	/** Searches a view's full texts, in slices. */
	search(view: ViewName, query: string): Promise<SearchResult> {
		const messages = this.computation?.views[view] ?? [];
		const argsText = this.base?.value.argsText;
		return this.work.sliced(searchMessagesSteps(messages, query, argsText ? { argsText } : {}));
	}

	locate(target: string): RowLocation | undefined {
		const computation = this.computation;
		const base = this.base?.value;
		return computation && base ? locateTarget(target, computation.rows, base.state) : undefined;
	}

	/** Tool-call ids a compressed block dropped (for recovering a `bN`). */
	blockCalls(ref: string): readonly string[] | undefined {
		return this.computation?.snapshot.refs.find((info) => info.ref === ref && info.kind === 'block')?.toolCallIds;
	}

	private async baseFor(session: ShownSession, signal: AbortSignal | undefined): Promise<SnapshotBase> {
		const cached = this.base;
		if (cached && cached.session.model === session.model && cached.session.config === session.config
			&& cached.session.rules === session.rules && cached.session.path === session.path) {
			// The same context; what else the session says (its title, where its release was found) may be newer.
			this.base = { ...cached, session };
			return cached.value;
		}
		const { value, model } = await this.work.sliced(baseSteps(session), signal);
		this.base = { session, value, model };
		return value;
	}

	/** The prices of the model the base's context names, if known; otherwise starts looking them up and returns undefined. */
	private pricingFor(): PricingInfo | undefined {
		const model = this.base?.model ?? replyModel(this.base?.value);
		if (!model) {
			return undefined;
		}
		const key = `${model.provider}/${model.modelId}`;
		const known = this.prices.get(key);
		if (known) {
			return known.value;
		}
		const entry: { value: PricingInfo | undefined } = { value: undefined };
		this.prices.set(key, entry);
		this.source.modelPricing(model.provider, model.modelId).then((found) => {
			entry.value = found && { modelId: key, contextWindow: found.contextWindow, cost: found.cost };
			if (entry.value) {
				this.onPricing();
			}
		}, () => undefined);
		return undefined;
	}
}

/**
 * The base, with the model Pi's context names (for its prices), from what the views derive (shared,
 * not rebuilt: computed here when the views have not yet), else from the model.
 */
function* baseSteps(session: ShownSession): Steps<{ readonly value: SnapshotBase; readonly model: ModelRef | null }> {
	const derived = session.derived;
	const branch = derived ? yield* derived.branchSteps() : yield* getBranchSteps(session.model);
	const context = derived ? yield* derived.contextSteps() : yield* buildSessionContextSteps(session.model);
	const state = derived && session.config.enabled ? yield* derived.stateSteps() : undefined;
	const value = yield* snapshotBaseSteps({
		sessionPath: session.path,
		title: session.title,
		branch,
		messages: context.messages,
		context,
		sessionEntries: session.model.entries,
		config: session.config,
		rules: session.rules,
		...(state ? { state } : {}),
	});
	return { value, model: context.model };
}

function replyModel(base: SnapshotBase | undefined): { provider: string; modelId: string } | undefined {
	return base?.reply ? { provider: base.reply.provider, modelId: base.reply.model } : undefined;
}
