/**
 * Annotations at the end of each entry's line in an open Pi session file, as GitLens and Error Lens
 * annotate code: the tokens of the entry's message, the ref a flush summarized it as, the chain
 * that dropped it, spilled outputs, a summary's refs, what a chain entry dropped, and Pi 1.6's
 * context edits (`src/engine/views/annotationText.ts` words them). Dimmed, in a color of its own
 * (`piCondense.annotationForeground`, the code lens color by default); `piCondense.annotations.enabled`
 * turns them off.
 *
 * The facts come from the store's model of the session (never from the document's text): its
 * insight indexes them once per snapshot, and only the lines an editor shows are worded, once the
 * scrolling has settled, in slices. The decoration's text is plain `after` content: it cannot run or
 * link anything. A file VS Code does not hand to extensions (over 50 MB) has no editor here, so it
 * is simply not annotated; an editor with unsaved changes is not either (its lines may have moved).
 */
import * as vscode from 'vscode';
import { md, type LineAnnotation } from '../../engine/views';
import { isWorkStopped, type Debounce, type LatestWins, type WorkScope } from '../../work';
import { errorMessage } from '../../base/errorMessage';
import { Disposable } from '../dispose';
import type { ExtensionSettings } from '../extensionConfig';
import type { SessionController } from '../sessionController';
import { markdownString } from '../ui/safeUi';

/** Scrolling and typing settle for this long before the visible lines are worded. */
const SETTLE_MS = 60;
/** Ranges computed kept for the tests (the last ones). */
const KEPT_RANGES = 200;

/**
 * What the hover over an annotation adds to its text (the keyboard's way to it: End, then Show Hover;
 * a screen reader reads the hover, not the decoration).
 */
const LEGEND = md`Tokens: what this entry gives Pi's context, counted as pi-condense counts (characters / 4). *summarized as t3*: a flush replaced the output by a stub (hover the ref to read it); *dropped by chain b1*: not sent, inside compressed chain b1; *spilled*: the output is in a file beside the session; *edited by Pi*: Pi 1.6 sends it as that context_edit changed it. Turn these off with \`piCondense.annotations.enabled\`.`;

/** Lines `[from, to]` (1-based, inclusive) of a file. */
export interface LineRange {
	readonly from: number;
	readonly to: number;
}

/** What an editor of a session file shows now: the ranges computed and their annotations. */
export interface ShownAnnotations {
	readonly ranges: readonly LineRange[];
	readonly lines: readonly LineAnnotation[];
}

export class SessionAnnotations extends Disposable {
	private readonly decoration: vscode.TextEditorDecorationType;
	private readonly updates: LatestWins;
	private readonly settle: Debounce;
	private readonly shown = new Map<string, ShownAnnotations>();
	/** Session files whose editors have unsaved changes, so show no annotations. */
	private readonly edited = new Set<string>();
	/** Every range of a session file computed, in order (the last `KEPT_RANGES`): tests check they were the visible ones. */
	readonly computed: { readonly path: string; readonly range: LineRange }[] = [];

	constructor(work: WorkScope, private readonly controller: SessionController, private readonly settings: ExtensionSettings, private readonly log: (message: string) => void) {
		super();
		this.decoration = this._register(vscode.window.createTextEditorDecorationType({
			after: { color: new vscode.ThemeColor('piCondense.annotationForeground'), fontStyle: 'italic', margin: '0 0 0 1.5em' },
			rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed,
		}));
		this.updates = work.latestWins((signal) => this.updateEditors(signal), (error) => log(`Could not annotate a session file: ${errorMessage(error)}`));
		this.settle = work.debounce(SETTLE_MS, () => void this.updates.request('restart'));
		const later = (): void => this.settle.schedule();
		this._register(vscode.window.onDidChangeVisibleTextEditors(later));
		this._register(vscode.window.onDidChangeTextEditorVisibleRanges((event) => sessionPathOf(event.textEditor.document) !== undefined && later()));
		// An edit hides them (the lines may have moved) and undoing it brings them back; a reload after
		// Pi appended waits for the store's model of the new lines (`onDidChangeOpenSession`).
		this._register(vscode.workspace.onDidChangeTextDocument(({ document }) => {
			const path = sessionPathOf(document);
			if (path !== undefined && (document.isDirty || this.edited.has(path))) {
				later();
			}
		}));
		this._register(controller.onDidChangeOpenSession(later));
		this._register(controller.onDidChangeSettings(later));
		this._register(controller.onDidChangeSessions((paths) => paths === undefined && later()));
		this._register(settings.onDidChange(({ current, previous }) => current.annotationsEnabled !== previous.annotationsEnabled && later()));
		later();
	}

	/** What the editors of this session file show now; undefined when none is annotated. */
	shownFor(path: string): ShownAnnotations | undefined {
		return this.shown.get(path);
	}

	private async updateEditors(signal: AbortSignal): Promise<void> {
		const annotated = new Set<string>();
		for (const editor of vscode.window.visibleTextEditors) {
			const path = sessionPathOf(editor.document);
			if (path !== undefined && !signal.aborted && await this.updateEditor(editor, path, signal)) {
				annotated.add(path);
			}
		}
		for (const path of [...this.shown.keys()].filter((shown) => !annotated.has(shown) && !signal.aborted)) {
			this.shown.delete(path);
		}
	}

	/** Annotates the visible lines of one editor of a session file; false when it shows none. */
	private async updateEditor(editor: vscode.TextEditor, path: string, signal: AbortSignal): Promise<boolean> {
		if (editor.document.isDirty) {
			this.edited.add(path);
		} else {
			this.edited.delete(path);
		}
		if (!this.settings.current.annotationsEnabled || editor.document.isDirty || !this.controller.knowsSession(path)) {
			editor.setDecorations(this.decoration, []);
			return false;
		}
		const ranges = editor.visibleRanges.map((range): LineRange => ({ from: range.start.line + 1, to: range.end.line + 1 }));
		const lines: LineAnnotation[] = [];
		try {
			for (const range of ranges) {
				this.computed.push({ path, range });
				lines.push(...await this.controller.annotationsFor(path, range.from, range.to, signal));
			}
		} catch (error) {
			if (isWorkStopped(error) || signal.aborted) {
				throw error;
			}
			this.log(`Could not annotate ${path}: ${errorMessage(error)}`);
			editor.setDecorations(this.decoration, []);
			return false;
		} finally {
			this.computed.splice(0, Math.max(0, this.computed.length - KEPT_RANGES));
		}
		const document = editor.document;
		const shown = lines.filter(({ line }) => line <= document.lineCount);
		editor.setDecorations(this.decoration, shown.map(({ line, text }): vscode.DecorationOptions => {
			const end = document.lineAt(line - 1).range.end;
			return { range: new vscode.Range(end, end), hoverMessage: markdownString(md`**Pi Condense** · ${text}\n\n${LEGEND}`), renderOptions: { after: { contentText: text } } };
		}));
		this.shown.set(path, { ranges, lines: shown });
		return true;
	}
}

/** The path of a document that may be a Pi session file (a `.jsonl` on disk), else undefined. */
function sessionPathOf(document: vscode.TextDocument): string | undefined {
	return document.uri.scheme === 'file' && document.uri.fsPath.endsWith('.jsonl') ? document.uri.fsPath : undefined;
}
