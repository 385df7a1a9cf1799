/**
 * Keeps the preview of the selected session up to date for the panel: rebuilds the base (state,
 * previous call) only when the session snapshot or the configuration changed, recomputes the page
 * data for each what-if change, and answers row expansions, searches and reveals from it.
 */
import { buildSessionContext, getBranch } from '../../engine/session';
import {
	computePreview, locateTarget, messageBlocks, previewBase, searchMessages, UNBOUNDED, whatIfChanges,
	type PreviewBase, type PreviewComputation, type PricingInfo, type RowLocation, type SearchResult, type WhatIfOverrides,
} from '../../engine/preview';
import type { PreviewBlock, ViewName } from '../../shared/protocol';
import type { PreviewSession, PreviewSource } from './previewSource';

export class PreviewComputer {
	private base: { readonly session: PreviewSession; readonly value: PreviewBase } | undefined;
	private computation: PreviewComputation | undefined;
	private readonly prices = new Map<string, Promise<PricingInfo | undefined>>();

	constructor(private readonly source: PreviewSource, private readonly now: () => number = Date.now) {}

	/** The latest computation, if any. */
	get current(): PreviewComputation | undefined {
		return this.computation;
	}

	get session(): PreviewSession | undefined {
		return this.base?.session;
	}

	/** Computes the preview of the source's current session; undefined when there is none. */
	async compute(overrides: WhatIfOverrides): Promise<PreviewComputation | undefined> {
		const session = this.source.current();
		if (!session) {
			this.base = undefined;
			this.computation = undefined;
			return undefined;
		}
		const base = this.baseFor(session);
		const pricing = await this.pricingFor(session);
		this.computation = computePreview(base, { overrides, pricing, now: this.now() });
		return this.computation;
	}

	/** The overrides that still change something against the configured settings. */
	effectiveOverrides(overrides: WhatIfOverrides): WhatIfOverrides {
		const session = this.base?.session ?? this.source.current();
		return session && whatIfChanges(session.config, overrides).length > 0 ? overrides : {};
	}

	/** Full blocks of a row; undefined when the row is not (or no longer) there. */
	rowBlocks(view: ViewName, index: number, key: string): PreviewBlock[] | undefined {
		const computation = this.computation;
		const message = computation?.views[view][index];
		if (!computation || !message || computation.snapshot[view][index]?.key !== key) {
			return undefined;
		}
		return messageBlocks(message, UNBOUNDED, this.base?.value.argsText);
	}

	search(view: ViewName, query: string): SearchResult {
		const messages = this.computation?.views[view] ?? [];
		const argsText = this.base?.value.argsText;
		return searchMessages(messages, query, argsText ? { argsText } : {});
	}

	locate(target: string): RowLocation | undefined {
		const computation = this.computation;
		const base = this.base?.value;
		return computation && base ? locateTarget(target, computation.snapshot, base.state) : undefined;
	}

	/** Tool-call ids a compressed block dropped (for recovering a `bN`). */
	blockCalls(ref: string): readonly string[] | undefined {
		return this.computation?.snapshot.refs.find((info) => info.ref === ref && info.kind === 'block')?.toolCallIds;
	}

	private baseFor(session: PreviewSession): PreviewBase {
		const cached = this.base;
		if (cached && cached.session.model === session.model && cached.session.config === session.config && cached.session.path === session.path) {
			return cached.value;
		}
		const value = previewBase({
			sessionPath: session.path,
			title: session.title,
			branch: getBranch(session.model),
			messages: buildSessionContext(session.model).messages,
			config: session.config,
		});
		this.base = { session, value };
		return value;
	}

	private pricingFor(session: PreviewSession): Promise<PricingInfo | undefined> {
		const model = buildSessionContext(session.model).model ?? replyModel(this.base?.value);
		if (!model) {
			return Promise.resolve(undefined);
		}
		const key = `${model.provider}/${model.modelId}`;
		let pricing = this.prices.get(key);
		if (!pricing) {
			pricing = this.source.modelPricing(model.provider, model.modelId).then(
				(found) => found && { modelId: key, contextWindow: found.contextWindow, cost: found.cost },
				() => undefined,
			);
			this.prices.set(key, pricing);
		}
		return pricing;
	}
}

function replyModel(base: PreviewBase | undefined): { provider: string; modelId: string } | undefined {
	return base?.reply ? { provider: base.reply.provider, modelId: base.reply.model } : undefined;
}
