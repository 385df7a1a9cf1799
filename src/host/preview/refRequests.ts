/**
 * The page's requests about a ref: its raw output for the hover tooltip, or opening it in full. A
 * compressed block `bN` stands for the tool calls its chain dropped.
 */
import { errorMessage } from '../../base/errorMessage';
import type { ToWebview } from '../../shared/protocol';
import type { WhatIfComputer } from './whatIfComputer';
import type { SessionFeed } from './sessionFeed';

/** What answering a ref takes of the preview host's options (`PageHostOptions` extends it). */
export interface RefOptions {
	readonly source: SessionFeed;
	readonly post: (message: ToWebview) => Promise<unknown>;
	/** Shows the raw outputs of a compressed block `bN` (the recovery text of its tool calls). */
	readonly openBlock: (sessionPath: string, blockId: string, text: string) => Promise<void>;
	readonly notify: (message: string) => void;
	readonly log: (message: string) => void;
}

/** Answers with the text, or with why there is none: the page's tooltip waits for one or the other. */
export async function answerRecovery(computer: WhatIfComputer, options: RefOptions, requestId: number, ref: string): Promise<void> {
	const ids = computer.blockCalls(ref) ?? [ref];
	try {
		const text = await options.source.recover(ids);
		await options.post({ type: 'recovered', requestId, ref, text });
	} catch (error) {
		options.log(`preview: recovering ${ref}: ${errorMessage(error)}`);
		await options.post({ type: 'recoveryFailed', requestId, ref, reason: errorMessage(error) });
	}
}

/** Opens a ref's raw output in full; says why when it cannot. */
export async function openRef(computer: WhatIfComputer, options: RefOptions, ref: string): Promise<void> {
	const ids = computer.blockCalls(ref);
	const session = computer.session;
	try {
		if (ids && session) {
			await options.openBlock(session.path, ref, await options.source.recover(ids));
		} else {
			await options.source.openRecovered(ref);
		}
	} catch (error) {
		options.notify(`Could not open ${ref}: ${errorMessage(error)}`);
	}
}
