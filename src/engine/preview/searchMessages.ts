/**
 * Full-text search over a view's messages, in the same block texts the page shows (unbounded).
 * Pure. Case-insensitive, literal (no regular-expression syntax); stops after `limit` hits.
 */
import type { ContextMessage } from '../session/types';
import { UNBOUNDED } from '../../base/boundedText';
import { blockText, messageBlocks } from './messageBlocks';
import type { ArgsText } from './argsText';
import { Pacer, type Steps } from '../steps';

export interface SearchHit {
	readonly row: number;
	readonly block: number;
	/** Offset in the block's full text. */
	readonly start: number;
}

export interface SearchResult {
	readonly hits: readonly SearchHit[];
	/** True when the search stopped at the limit. */
	readonly capped: boolean;
}

export const SEARCH_HIT_LIMIT = 5000;

export interface SearchOptions {
	readonly limit?: number;
	/** The base's cached pretty arguments (searching serializes every call's arguments otherwise). */
	readonly argsText?: ArgsText;
}

/** The hits of `query` in the messages' full texts, up to the limit, in steps (see `src/engine/steps.ts`). */
export function* searchMessagesSteps(messages: readonly ContextMessage[], query: string, options: SearchOptions = {}): Steps<SearchResult> {
	const limit = options.limit ?? SEARCH_HIT_LIMIT;
	const hits: SearchHit[] = [];
	if (query === '') {
		return { hits, capped: false };
	}
	const pattern = new RegExp(query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi');
	const pacer = new Pacer();
	for (let row = 0; row < messages.length; row++) {
		const blocks = messageBlocks(messages[row] as ContextMessage, UNBOUNDED, options.argsText);
		let rowChars = 0;
		for (let block = 0; block < blocks.length; block++) {
			const text = blockText(blocks[block] as (typeof blocks)[number]);
			rowChars += text.length;
			pattern.lastIndex = 0;
			for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
				if (hits.length === limit) {
					return { hits, capped: true };
				}
				hits.push({ row, block, start: match.index });
			}
		}
		if (pacer.due(rowChars)) {
			yield;
		}
	}
	return { hits, capped: false };
}
