/**
 * What the bridge reads from Pi: its version, the session and model from the event context, and
 * which pi-condense is loaded and in which order (from the command list). Everything Pi may lack
 * (an older Pi) or may refuse (a context of a replaced session throws) is optional here: the bridge
 * reports what it could read and never fails Pi.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type BridgeState, type CommandSource, findLoadOrder, type FoundOrder, type LiveModel, type LiveUsage, PI_CONDENSE_PACKAGES, type PiCondenseLoaded } from '../src/engine/live';

/** The parts of Pi's `ExtensionContext` the bridge reads (all of them exist in Pi 1.x). */
export interface PiContext {
	readonly mode?: string;
	readonly cwd: string;
	readonly model?: { readonly provider: string; readonly id: string; readonly contextWindow?: number };
	readonly thinkingLevel?: string;
	readonly sessionManager: {
		getSessionFile(): string | undefined;
		getSessionId(): string;
		getLeafId(): string | null;
	};
	isIdle(): boolean;
	getContextUsage?(): { tokens: number | null; contextWindow: number; percent: number | null } | undefined;
	getSystemPrompt?(): string;
	readonly ui: {
		setEditorText(text: string): void;
		getEditorText?(): string;
		notify(message: string, type?: 'info' | 'warning' | 'error'): void;
	};
}

export interface PiCommandInfo {
	readonly name: string;
	readonly source: string;
	readonly sourceInfo?: { readonly path?: string };
}

/** Pi's version, from the package extensions import (mapped by Pi to its own copy). */
export async function readPiVersion(): Promise<string> {
	for (const name of ['@earendil-works/pi-coding-agent', '@mariozechner/pi-coding-agent']) {
		try {
			const module = (await import(name)) as { VERSION?: unknown };
			if (typeof module.VERSION === 'string') {
				return module.VERSION.slice(0, 64);
			}
		} catch {
			// Not this name in this Pi.
		}
	}
	return 'unknown';
}

/** The load order and the pi-condense behind `/pruner`, named by its package.json when one is found above its file. */
export function readLoadOrder(commands: readonly PiCommandInfo[] | undefined): { readonly order: FoundOrder['order']; readonly piCondense: PiCondenseLoaded | undefined } {
	const sources: CommandSource[] | undefined = commands?.map((command) => ({ name: command.name, source: command.source, path: command.sourceInfo?.path }));
	const found = findLoadOrder(sources);
	if (!found.pruner) {
		return { order: found.order, piCondense: undefined };
	}
	const identity = packageAbove(found.pruner.path);
	return { order: found.order, piCondense: { ...identity, path: found.pruner.path, command: found.pruner.command } };
}

/** The nearest package.json at or above `path` (a few levels), when it names a pi-condense. */
function packageAbove(path: string): { readonly name: string | undefined; readonly version: string | undefined } {
	if (path.startsWith('builtin:') || path.startsWith('<')) {
		return { name: undefined, version: undefined };
	}
	let folder = path;
	for (let level = 0; level < 6; level++) {
		try {
			const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
			const name = typeof manifest.name === 'string' && PI_CONDENSE_PACKAGES.includes(manifest.name) ? manifest.name : undefined;
			return { name, version: name !== undefined && typeof manifest.version === 'string' ? manifest.version.slice(0, 64) : undefined };
		} catch {
			// No package.json here (or `path` is a file): look one level up.
		}
		const parent = dirname(folder);
		if (parent === folder) {
			break;
		}
		folder = parent;
	}
	return { name: undefined, version: undefined };
}

export function modelOf(context: PiContext): LiveModel | undefined {
	const model = context.model;
	return model && { provider: model.provider, id: model.id, contextWindow: model.contextWindow };
}

function usageOf(context: PiContext): LiveUsage | undefined {
	const usage = context.getContextUsage?.();
	return usage && { tokens: usage.tokens, contextWindow: usage.contextWindow, percent: usage.percent };
}

export interface StaticFacts {
	readonly piVersion: string;
	readonly bridgeVersion: string;
	readonly order: BridgeState['order'];
	readonly piCondense: PiCondenseLoaded | undefined;
}

/** The state as Pi says it now; throws when the context belongs to a replaced session. */
export function stateOf(context: PiContext, facts: StaticFacts, thinkingLevel: string | undefined): BridgeState {
	const sessions = context.sessionManager;
	return {
		pid: process.pid,
		piVersion: facts.piVersion,
		mode: context.mode ?? 'unknown',
		cwd: context.cwd,
		sessionFile: sessions.getSessionFile(),
		sessionId: sessions.getSessionId(),
		leafId: sessions.getLeafId(),
		model: modelOf(context),
		thinkingLevel: context.thinkingLevel ?? thinkingLevel,
		busy: !context.isIdle(),
		usage: usageOf(context),
		piCondense: facts.piCondense,
		order: facts.order,
		bridgeVersion: facts.bridgeVersion,
	};
}
