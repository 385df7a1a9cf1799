/**
 * Search Pi Sessions…: a quick pick over the session index's full-text search of every session,
 * searched as the user types (after a short pause; a newer text stops the search before it), each
 * found message an item (its session, project and time; the words around the match). Accepting one
 * opens its session and shows that message in the context preview.
 */
import { relativeTime } from '../../base/relativeTime';
import type { MessageHit, SessionHits } from '../../node/history/historySearch';
import { isWorkStopped, type WorkScope } from '../../work';
import type { SessionController } from '../sessionController';
import { searchPick } from '../ui/safeUi';

/** The pause after the last key before a search. */
const TYPING_PAUSE_MS = 150;
const SESSIONS_SHOWN = 30;
const MESSAGES_PER_SESSION = 3;

const ROLE_NAMES: Readonly<Record<MessageHit['role'], string>> = {
	user: 'You', assistant: 'Assistant', tool: 'Tool', bash: 'Shell', custom: 'Extension', summary: 'Summary',
};

export interface FoundMessage {
	readonly label: string;
	readonly description: string;
	readonly detail: string;
	readonly path: string;
	readonly entryId: string | undefined;
	readonly line: number;
}

/** The pick's items for these hits (exported for tests). */
export function foundMessages(hits: readonly SessionHits[], projectName: (cwd: string) => string, now: number): FoundMessage[] {
	return hits.flatMap((hit) => hit.messages.map((message) => ({
		label: hit.title,
		description: `${projectName(hit.cwd)} · ${relativeTime(message.time ?? hit.modified, now)}`,
		detail: `${ROLE_NAMES[message.role]}: ${message.snippet?.text ?? `(line ${message.line})`}`,
		path: hit.path,
		entryId: message.entryId,
		line: message.line,
	})));
}

export class SessionSearch {
	private shown: readonly FoundMessage[] = [];

	constructor(private readonly work: WorkScope, private readonly controller: SessionController) {}

	/** The items the pick shows now (the integration tests wait for them). */
	get lastShown(): readonly FoundMessage[] {
		return this.shown;
	}

	/** Shows the pick (with `initial` typed, when given); resolves with the message chosen, or undefined. */
	pick(initial?: string): Promise<FoundMessage | undefined> {
		let search: AbortController | undefined;
		let typed = '';
		let answerPick: (items: readonly FoundMessage[], busy: boolean) => void = () => undefined;
		const show = (items: readonly FoundMessage[], busy: boolean): void => {
			this.shown = items;
			answerPick(items, busy);
		};
		const run = this.work.debounce(TYPING_PAUSE_MS, async () => {
			search?.abort();
			const current = new AbortController();
			search = current;
			const answer = (items: readonly FoundMessage[], busy: boolean): void => {
				if (search === current) {
					show(items, busy);
				}
			};
			try {
				const hits = await this.controller.searchHistory(typed, { sessions: SESSIONS_SHOWN, messagesPerSession: MESSAGES_PER_SESSION }, current.signal);
				const names = new Map(this.controller.projects().map((project) => [project.cwd, project.label]));
				answer(hits === undefined ? [] : foundMessages(hits, (cwd) => names.get(cwd) ?? cwd, Date.now()), false);
			} catch (error) {
				if (!isWorkStopped(error)) {
					answer([], false);
					throw error;
				}
			}
		});
		const indexState = this.controller.indexState;
		const placeholder = indexState === undefined || indexState.kind === 'off' || indexState.kind === 'cleared'
			? 'The session index is off in this window: nothing can be searched (see Show Status)'
			: 'Words to find in every Pi session: all of them must occur in a message';
		return searchPick<FoundMessage>({
			title: 'Pi Condense: search Pi sessions',
			placeholder,
			value: initial,
			onValue: (value, answer) => {
				typed = value.trim();
				answerPick = answer;
				search?.abort();
				search = undefined;
				if (typed === '') {
					run.cancel();
					show([], false);
					return;
				}
				show([], true);
				run.schedule();
			},
			onClose: () => {
				run.cancel();
				search?.abort();
				this.shown = [];
			},
		});
	}
}
