/**
 * Search Pi Sessions…, the palette's one way to find a session: with nothing typed it lists the
 * sessions, newest first, by project (as Open Session… does); typed words pick the sessions whose
 * name, project or file holds them at once, then every message where all of them occur, from the
 * session index (searched after a short pause; a newer text stops the search before it). Each found
 * message shows its session, project and time and the words around the match; accepting it opens its
 * session and shows that message in the context preview.
 */
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { relativeTime } from '../../base/relativeTime';
import type { ProjectItem } from '../../engine/views';
import type { MessageHit, SessionHits } from '../../node/history/historySearch';
import type { WorkScope } from '../../work';
import type { SessionController } from '../sessionController';
import { searchPick } from '../ui/safeUi';

/** The pause after the last key before a search. */
const TYPING_PAUSE_MS = 150;
const SESSIONS_SEARCHED = 30;
const MESSAGES_PER_SESSION = 3;
/** Sessions listed by name at most while words are typed (the messages found come after them). */
const NAMED_SESSIONS = 20;

const ROLE_NAMES: Readonly<Record<MessageHit['role'], string>> = {
	user: 'You', assistant: 'Assistant', tool: 'Tool', bash: 'Shell', custom: 'Extension', summary: 'Summary',
};

/** An item of the pick: a session, a message found in one (`entryId`, `line`), or a separator. */
export interface FoundItem extends vscode.QuickPickItem {
	readonly path?: string;
	readonly entryId?: string;
	readonly line?: number;
}

const separator = (label: string): FoundItem => ({ label, kind: vscode.QuickPickItemKind.Separator });

/** The listed sessions whose title, project or file holds `text` (all of them for ''), newest project first. */
export function sessionItems(projects: readonly ProjectItem[], text: string, limit = Number.POSITIVE_INFINITY): FoundItem[] {
	const wanted = text.toLowerCase();
	const items: FoundItem[] = [];
	for (const project of projects) {
		const sessions = project.sessions.filter((session) => [session.label, session.path, project.label].some((value) => value.toLowerCase().includes(wanted)));
		if (sessions.length > 0 && items.length < limit) {
			items.push(separator(project.label));
			items.push(...sessions.slice(0, limit - items.length).map((session): FoundItem => ({
				label: session.label, description: session.description, path: session.path,
				// Found by its file (its id): the file's name says why it is here.
				...(wanted !== '' && !session.label.toLowerCase().includes(wanted) && !project.label.toLowerCase().includes(wanted) ? { detail: basename(session.path) } : {}),
			})));
		}
	}
	return items;
}

/** The pick's items for messages found (exported for tests). */
export function foundMessages(hits: readonly SessionHits[], projectName: (cwd: string) => string, now: number): FoundItem[] {
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
	private shown: readonly FoundItem[] = [];

	constructor(private readonly work: WorkScope, private readonly controller: SessionController) {}

	/** The items the pick shows now (the integration tests wait for them). */
	get lastShown(): readonly FoundItem[] {
		return this.shown;
	}

	/** Shows the pick (with `initial` typed, when given); resolves with the session or message chosen, or undefined. */
	pick(initial?: string): Promise<FoundItem | undefined> {
		// The pick's own work: closing the pick stops its search; each typed text replaces the search before it.
		const pickWork = this.work.child('Search Pi Sessions…');
		let typed = '';
		let named: readonly FoundItem[] = [];
		// The listed sessions as the pick opened (rebuilt when they change, not at every key).
		let projects: readonly ProjectItem[] | undefined;
		const listening = this.controller.onDidChangeSessions(() => {
			projects = undefined;
		});
		pickWork.onClose(() => listening.dispose());
		let answerPick: (items: readonly FoundItem[], busy: boolean) => void = () => undefined;
		const show = (items: readonly FoundItem[], busy: boolean): void => {
			this.shown = items;
			answerPick(items, busy);
		};
		const listed = (): readonly ProjectItem[] => (projects ??= this.controller.projects());
		const searches = pickWork.latestWins(async (signal) => {
			const words = typed;
			try {
				const hits = await this.controller.searchHistory(words, { sessions: SESSIONS_SEARCHED, messagesPerSession: MESSAGES_PER_SESSION }, signal);
				if (words === typed && !signal.aborted) {
					const names = new Map(listed().map((project) => [project.cwd, project.label]));
					const messages = hits === undefined ? [] : foundMessages(hits, (cwd) => names.get(cwd) ?? cwd, Date.now());
					show([...named, ...(messages.length > 0 ? [separator('found in messages'), ...messages] : [])], false);
				}
			} catch (error) {
				if (words === typed) {
					show(named, false);
				}
				throw error;
			}
		});
		const run = pickWork.debounce(TYPING_PAUSE_MS, () => void searches.request('restart'));
		return searchPick({
			title: 'Pi Condense: search Pi sessions',
			placeholder: this.searchable()
				? 'A session\'s name, or words to find in every message of every session (all of them in one message)'
				: 'A session\'s name (the session index is off in this window: messages are not searched)',
			value: initial,
			onValue: (value, answer) => {
				typed = value.trim();
				answerPick = answer;
				named = sessionItems(listed(), typed, typed === '' ? Number.POSITIVE_INFINITY : NAMED_SESSIONS);
				if (typed === '' || !this.searchable()) {
					run.cancel();
					show(named, false);
					return;
				}
				show(named, true);
				run.schedule();
			},
			onClose: () => {
				void pickWork.close();
				this.shown = [];
			},
		});
	}

	private searchable(): boolean {
		const state = this.controller.indexState;
		return state !== undefined && state.kind !== 'off' && state.kind !== 'cleared';
	}
}
