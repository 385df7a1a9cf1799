/**
 * One row of the list: a header (role, title, badges, size, actions) and the message's blocks,
 * with refs made clickable and search matches highlighted. A stub also shows what it replaced.
 */
import type { EditedOrigin, PreviewBlock, PreviewRow, RowBadge, RowKind, StubOrigin, ViewName } from '../src/shared/protocol';
import { blockElement } from './blockElements';
import { el, icon } from './dom';
import { chars, tokens } from './format';
import { highlight, linkRefs, refElement } from './textMarks';

export interface RowContext {
	readonly view: ViewName;
	readonly refs: ReadonlySet<string>;
	/** Full blocks of expanded rows, by key. */
	readonly expanded: ReadonlyMap<string, readonly PreviewBlock[]>;
	readonly rawMarkdown: ReadonlySet<string>;
	readonly query: string;
	/** Rows holding search hits (their thinking opens). */
	readonly hitRows: ReadonlySet<number>;
	readonly currentHitRow: number | undefined;
}

const KIND: Readonly<Record<RowKind, readonly [string, string]>> = {
	system: ['settings', 'System prompt'],
	user: ['account', 'User'],
	assistant: ['sparkle', 'Assistant'],
	toolResult: ['output', 'Tool result'],
	bashExecution: ['terminal', 'Bash (!)'],
	custom: ['extensions', 'Extension message'],
	branchSummary: ['git-branch', 'Branch summary'],
	compactionSummary: ['fold', 'Compaction summary'],
	chain: ['fold', 'Compressed chain'],
	summary: ['note', 'Pruner summary'],
};

export function rowElement(row: PreviewRow, index: number, context: RowContext): HTMLElement {
	const full = context.expanded.get(row.key);
	const blocks = full ?? row.blocks;
	const [iconName, roleLabel] = KIND[row.kind];
	const classes = ['row', `kind-${row.kind}`, ...row.badges.map((b) => `has-${b.kind}`)];
	if (index === context.currentHitRow) {
		classes.push('current-hit');
	}
	const node = el('div', { className: classes.join(' '), attrs: { role: 'listitem' }, data: { index: String(index), key: row.key } });
	node.appendChild(header(row, index, iconName, roleLabel, full !== undefined, context));
	const body = el('div', { className: 'row-body' });
	const open = context.hitRows.has(index);
	for (const block of blocks) {
		body.appendChild(blockElement(block, { raw: context.rawMarkdown.has(row.key), open }));
	}
	if (!full && row.hiddenBlocks > 0) {
		body.appendChild(el('div', { className: 'cut', text: `… ${row.hiddenBlocks} more block(s)` }));
	}
	linkRefs(body, context.refs);
	highlight(body, context.query);
	node.appendChild(body);
	if (row.stub) {
		node.appendChild(stubOrigin(row.stub, context));
	}
	if (row.edited) {
		node.appendChild(editedOrigin(row.edited, context));
	}
	return node;
}

function header(row: PreviewRow, index: number, iconName: string, roleLabel: string, isExpanded: boolean, context: RowContext): HTMLElement {
	const actions = el('span', { className: 'row-actions' });
	if (row.truncated || isExpanded) {
		actions.appendChild(button(isExpanded ? 'Collapse' : 'Show all', isExpanded ? 'collapse' : 'expand', isExpanded ? 'chevron-up' : 'unfold'));
	}
	if (row.blocks.some((b) => b.kind === 'markdown')) {
		const raw = context.rawMarkdown.has(row.key);
		actions.appendChild(button(raw ? 'Formatted' : 'Exact text', 'raw', raw ? 'markdown' : 'code'));
	}
	if (row.counterpart !== undefined) {
		const other = context.view === 'after' ? 'raw context' : 'sent context';
		actions.appendChild(button(`In ${other}`, 'counterpart', 'arrow-swap'));
	}
	return el('div', { className: 'row-head' }, [
		icon(iconName),
		el('span', { className: 'row-index', text: `#${index}` }),
		el('span', { className: 'row-role', text: roleLabel }),
		row.title ? el('span', { className: 'row-title', text: row.title, title: row.entryId ? `entry ${row.entryId}` : row.title }) : null,
		el('span', { className: 'badges' }, row.badges.map(badge)),
		el('span', { className: 'row-size', text: `${tokens(row.tokens)} tok`, title: `${chars(row.chars)} serialized (tokens ≈ chars / 4)` }),
		actions,
	]);
}

function badge(info: RowBadge): HTMLElement {
	return el('span', { className: `badge badge-${info.kind}`, text: info.label, ...(info.detail ? { title: info.detail } : {}) });
}

/** The row button a click landed on: its action, its row's index and the ref it names (if any). */
export function clickedRowAction(event: MouseEvent): { readonly action: string; readonly index: number; readonly ref: string | undefined } | undefined {
	const button = event.target instanceof Element ? event.target.closest<HTMLElement>('[data-action]') : null;
	const index = Number(button?.closest<HTMLElement>('.row')?.dataset.index);
	return button && !Number.isNaN(index) ? { action: button.dataset.action ?? '', index, ref: button.dataset.ref } : undefined;
}

function button(label: string, action: string, iconName: string): HTMLButtonElement {
	return el('button', { className: 'row-button icon-only', title: label, attrs: { type: 'button', 'aria-label': label }, data: { action } }, [icon(iconName)]);
}

/** Pi 1.x: a message Pi sends with replaced content, and what its session entry says. */
function editedOrigin(edited: EditedOrigin, context: RowContext): HTMLElement {
	const text = el('pre', { className: 'text', text: edited.entryText });
	highlight(text, context.query);
	return el('div', { className: 'stub-origin edited-origin' }, [
		el('div', { className: 'stub-line' }, [icon('edit'), el('span', { text: ` Sent as context_edit ${edited.editId} replaced it; the entry is unchanged.` })]),
		el('details', { className: 'stub-head' }, [el('summary', { text: 'What the entry says' }), text]),
	]);
}

function stubOrigin(stub: StubOrigin, context: RowContext): HTMLElement {
	const what = stub.kind === 'alias' ? `Same output as ${stub.aliasOf ?? stub.ref}` : stub.kind === 'spilled' ? 'Spilled output' : 'Replaced output';
	const head = el('pre', { className: 'text', text: stub.head });
	highlight(head, context.query);
	return el('div', { className: 'stub-origin' }, [
		el('div', { className: 'stub-line' }, [
			icon('history'),
			el('span', { text: ` ${what} of ${stub.toolName}: ` }),
			refElement(stub.ref),
			el('span', { text: ` · ${chars(stub.originalChars)} (~${tokens(stub.originalTokens)} tokens)${stub.spillBytes !== undefined ? ` · ${stub.spillBytes} bytes on disk` : ''} ` }),
			el('button', { className: 'row-button', attrs: { type: 'button' }, data: { action: 'open-ref', ref: stub.ref } }, [icon('go-to-file'), el('span', { text: ' Open full output' })]),
		]),
		el('details', { className: 'stub-head' }, [el('summary', { text: 'Head of what the stub replaced' }), head]),
	]);
}
