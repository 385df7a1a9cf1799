/**
 * What the views, hovers and commands ask of any listed session, worked out from its open model
 * as its release renders it, in slices under the controller's work scope (closing it stops and
 * waits for them): its insight, a dry run of a prune, pi-condense's state, the editor's
 * annotations, recovered outputs. `SessionController`, which owns the selection, extends this.
 */
import type * as vscode from 'vscode';
import { recoverOutputs, type CondenseState } from '../engine/condense';
import type { FlushMode } from '../engine/flush';
import type { FlushEstimate } from '../engine/preview';
import type { Steps } from '../engine/steps';
import { lineAnnotationsSteps, type LineAnnotation, type PreparedInsight } from '../engine/views';
import { sha1Hex } from '../node/flush/sha1Hasher';
import type { OpenSession } from '../node/store/openSession';
import type { SessionStore } from '../node/store/sessionStore';
import { isWorkStopped, type WorkScope } from '../work';
import { SessionDirectory } from './sessionDirectory';

export abstract class SessionQueries extends SessionDirectory {
	constructor(store: SessionStore, logger: vscode.LogOutputChannel, protected readonly work: WorkScope) {
		super(store, logger);
	}

	/** A dry run of a prune of `path` has ended (the controller tells the views when it is the selected session's). */
	protected abstract estimated(path: string): void;

	/** The derived data of any listed session (opened on demand and kept for a while), as its release renders it, computed in slices. */
	insightFor(path: string): Promise<PreparedInsight> {
		return this.work.run(async (signal) => this.work.sliced((await this.openSession(path)).insight(this.renderSettingsFor(path)).prepare(), signal));
	}

	/**
	 * What `now` or `compact` would do to a listed session and reclaim: a dry run of the flush
	 * (`SessionInsight.flushEstimate`), in slices, kept with the session's insight, so the preview's
	 * bar, the confirmation and the toast read one figure.
	 */
	flushEstimateFor(path: string, mode: FlushMode): Promise<FlushEstimate> {
		return this.work.run(async (signal) => {
			const insight = (await this.openSession(path)).insight(this.renderSettingsFor(path));
			const ports = { hash: sha1Hex, runSteps: <T>(steps: Steps<T>): Promise<T> => this.work.sliced(steps, signal) };
			let estimate: FlushEstimate;
			try {
				estimate = await insight.flushEstimate(mode, ports, Date.now());
			} catch (error) {
				// A dry run another scope started and stopped: this one runs it again.
				if (!isWorkStopped(error) || signal.aborted) {
					throw error;
				}
				estimate = await insight.flushEstimate(mode, ports, Date.now());
			}
			this.estimated(path);
			return estimate;
		});
	}

	/** A listed session and pi-condense's state of it as its release rebuilds it, computed in slices. */
	stateFor(path: string, signal?: AbortSignal): Promise<{ readonly session: OpenSession; readonly state: CondenseState }> {
		return this.work.run(async (stop) => {
			const session = await this.openSession(path);
			return { session, state: await this.work.sliced(session.insight(this.renderSettingsFor(path)).stateSteps(), stop) };
		}, signal);
	}

	/**
	 * The editor's annotations of lines `[fromLine, toLine]` (1-based) of a listed session: its
	 * insight's annotation index (made once per snapshot), then the facts of those lines only, in slices.
	 */
	annotationsFor(path: string, fromLine: number, toLine: number, signal?: AbortSignal): Promise<readonly LineAnnotation[]> {
		return this.work.run(async (stop) => {
			const session = await this.openSession(path);
			const index = await this.work.sliced(session.insight(this.renderSettingsFor(path)).annotationsSteps(), stop);
			return this.work.sliced(lineAnnotationsSteps(index, fromLine, toLine), stop);
		}, signal);
	}

	/** `context_tree_query`'s text for these refs of a session (its spilled outputs read before `close` resolves). */
	recover(path: string, refs: readonly string[]): Promise<string> {
		return this.work.run(async (signal) => {
			const { session, state } = await this.stateFor(path, signal);
			return (await recoverOutputs(state, refs, session.blobs)).text;
		});
	}
}
