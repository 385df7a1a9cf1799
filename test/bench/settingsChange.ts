/**
 * The step probe's "settings change": a `contextPrune` setting changed while the preview is open on
 * the selected session, and what the extension then does on its host thread, with the host's own
 * classes: the selected session's views prepared again (`SelectedInsight`, restarted by the new
 * settings), and the preview (`PageHost`) refreshed at once from the new settings, then again
 * when the views' new data is ready; every message posted to the page serialized as VS Code does.
 */
import type { ContextPruneConfig } from '../../src/engine/config/types';
import type { ReleaseRules } from '../../src/engine/release/releases';
import type { SessionModel } from '../../src/engine/session/model';
import { SessionInsight } from '../../src/engine/views/sessionInsight';
import { PageHost } from '../../src/host/preview/pageHost';
import type { ShownSession, SessionFeed } from '../../src/host/preview/sessionFeed';
import { SelectedInsight } from '../../src/host/selectedInsight';
import type { RenderSettings } from '../../src/node/settings/readPruneSettings';
import { testScope } from '../support/testWork';

export interface OpenPreview {
	/** Changes the settings as Pi's settings.json changing does; resolves once the page has the new preview. */
	change(config: ContextPruneConfig): Promise<{ readonly posted: number }>;
	dispose(): void;
}

/** The preview opened on `model` with `config`, the selected session's views prepared first (as the extension has them before a change). */
export async function openPreview(path: string, model: SessionModel, config: ContextPruneConfig, rules: ReleaseRules): Promise<OpenPreview> {
	let settings: RenderSettings = { config, rules };
	let insight: SessionInsight | undefined;
	// As OpenSession.insight: one insight per model and settings, shared by the views and the preview.
	const session = {
		path,
		insight: (wanted: RenderSettings): SessionInsight => {
			if (insight?.config !== wanted.config || insight.rules !== wanted.rules) {
				insight = new SessionInsight(model, wanted.config, wanted.rules);
			}
			return insight;
		},
	};
	let refreshes: Promise<void>[] = [];
	let posted = 0;
	const work = testScope('settings change');
	const host = new PageHost({
		work: work.child('page'),
		source: sessionFeed(() => ({
			path, title: 'bench', model, config: settings.config, rules: settings.rules,
			followed: { line: `pi-condense ${rules.version}`, installed: true },
			blobs: { readBlob: () => Promise.resolve(undefined) },
			derived: session.insight(settings),
		})),
		post: (message) => {
			posted += JSON.stringify(message).length;
			return Promise.resolve();
		},
		openBlock: () => Promise.resolve(),
		notify: () => undefined,
		setTitle: () => undefined,
		onReport: () => undefined,
		log: (message) => {
			throw new Error(message);
		},
	});
	const selected = new SelectedInsight(work.child('selected session'), {
		selected: () => ({ session, settings }),
		// The controller's onDidChangeSelectedSession: the preview follows the views' new data.
		onReady: () => refreshes.push(host.refresh('session')),
		onError: (message) => {
			throw new Error(message);
		},
	});
	await selected.prepare(true);
	await host.handle({ type: 'ready' });
	await Promise.all(refreshes);
	return {
		async change(next: ContextPruneConfig) {
			settings = { config: next, rules };
			refreshes = [];
			posted = 0;
			// The controller's 'settings' change: the views start over, the preview refreshes at once.
			const preparing = selected.prepare(true);
			refreshes.push(host.refresh('session'));
			await preparing;
			await selected.idle();
			await Promise.all(refreshes);
			return { posted };
		},
		dispose: () => void work.close(),
	};
}

function sessionFeed(current: () => ShownSession): SessionFeed {
	const unused = (): Promise<never> => Promise.reject(new Error('not used by the bench'));
	return {
		onDidChangeSession: () => ({ dispose: () => undefined }),
		current,
		recover: unused,
		openRecovered: unused,
		modelPricing: () => Promise.resolve(undefined),
		compact: unused,
		summarizeNow: unused,
		applyPruneSettings: unused,
	};
}
