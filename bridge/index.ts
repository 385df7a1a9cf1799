/**
 * Pi Condense's bridge: a Pi extension that lets VS Code see what this Pi really sends and put
 * `/pruner now` or `/pruner compact` into its editor. It observes and never acts on its own: every
 * handler returns nothing (no message is changed, no payload replaced), it sends no message, changes
 * no model or tool, and writes nothing to the session. Installed by "Pi Condense: Connect Pi to VS
 * Code" as the last package in Pi's settings, so that its `context` handler runs after pi-condense's.
 * The factory starts nothing: the endpoint opens at `session_start`.
 */
import type { ExtensionAPI, ExtensionContext } from '@earendil-works/pi-coding-agent';
import { BRIDGE_COMMAND } from '../src/engine/live';
import { bridgeRuntime } from './bridgeRuntime';
import { modelOf, readLoadOrder, readPiVersion, type PiCommandInfo } from './piFacts';

declare const PI_CONDENSE_BRIDGE_VERSION: string;

/** An observer must never fail Pi: whatever goes wrong stays here. */
function quietly(work: () => void): void {
	try {
		work();
	} catch {
		// Nothing to report to Pi: the bridge is only an observer.
	}
}

export default function piCondenseVscodeBridge(pi: ExtensionAPI): void {
	const runtime = bridgeRuntime();
	const commands = (): readonly PiCommandInfo[] | undefined => (typeof pi.getCommands === 'function' ? pi.getCommands() : undefined);

	pi.registerCommand(BRIDGE_COMMAND, {
		description: 'Pi Condense for VS Code: what this Pi shares with VS Code',
		handler: async (_args, ctx) => {
			const clients = runtime.connectedClients;
			ctx.ui.notify(runtime.problem !== undefined ? `Pi Condense bridge is off: ${runtime.problem}`
				: `Pi Condense bridge: ${clients} VS Code window(s) connected. They see this session's state and its last model request, and can put /pruner now or /pruner compact into this editor (you press Enter). Nothing else.`, 'info');
			return Promise.resolve();
		},
	});

	pi.on('session_start', async (_event, ctx) => {
		try {
			const { order, piCondense } = readLoadOrder(commands());
			const facts = { piVersion: await readPiVersion(), bridgeVersion: PI_CONDENSE_BRIDGE_VERSION, order, piCondense };
			await runtime.bind(ctx, facts, () => (typeof pi.getThinkingLevel === 'function' ? pi.getThinkingLevel() : undefined));
		} catch {
			// The bridge stays off for this session; Pi goes on.
		}
	});
	pi.on('session_shutdown', async (event) => {
		try {
			await runtime.unbind(event.reason);
		} catch {
			// Pi is closing the session either way.
		}
	});

	pi.on('context', (event, ctx) => {
		quietly(() => {
			const context = ctx;
			runtime.touch(context);
			const sessions = context.sessionManager;
			runtime.capture.onContext(event.messages, {
				sessionFile: sessions.getSessionFile(), leafId: sessions.getLeafId(), model: modelOf(context), systemPrompt: context.getSystemPrompt?.(),
			});
		});
	});
	pi.on('context_with_system', (event) => {
		quietly(() => runtime.capture.onContextWithSystem(event.messages));
	});
	pi.on('before_provider_request', (event) => {
		quietly(() => {
			runtime.capture.onPayload(event.payload);
			runtime.requestSent();
		});
	});

	// What changes the state VS Code shows: busy or idle, the leaf and Pi's own usage figure, model and thinking level.
	const changed = (_event: unknown, ctx: ExtensionContext): void => quietly(() => {
		runtime.touch(ctx);
		runtime.stateChanged();
	});
	pi.on('agent_start', changed);
	pi.on('turn_end', changed);
	pi.on('agent_settled', changed);
	pi.on('model_select', changed);
	pi.on('thinking_level_select', changed);
	pi.on('session_compact', changed);
	pi.on('session_tree', changed);
	pi.on('session_info_changed', changed);
}
