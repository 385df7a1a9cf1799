/**
 * Checks at run time that a message from the preview page is one of the protocol's
 * (`FromWebview` in src/shared/protocol.ts), field by field. The page renders hostile session text:
 * however well it is defended, the host treats what it posts as untrusted input and acts only on
 * messages of the exact shape it expects.
 */
import type { FromWebview, PageState, RenderReport, ViewName, WhatIfOverrides } from '../../shared/protocol';
import { isPlainObject } from '../../base/plainObject';

type Check = (value: unknown) => boolean;

const isString: Check = (value) => typeof value === 'string';
const isBoolean: Check = (value) => typeof value === 'boolean';
const isNumber: Check = (value) => typeof value === 'number' && Number.isFinite(value);
const isCount: Check = (value) => Number.isSafeInteger(value) && (value as number) >= 0;
const isView = (value: unknown): value is ViewName => value === 'after' || value === 'before';
const optional = (check: Check): Check => (value) => value === undefined || check(value);
const listOf = (check: Check): Check => (value) => Array.isArray(value) && value.every(check);
const recordOf = (check: Check): Check => (value) => isPlainObject(value) && Object.values(value).every(check);

/** An object whose own keys are all among `fields` (optional ones may be missing) and pass their checks. */
function shaped(fields: Readonly<Record<string, Check>>, required: readonly string[] = Object.keys(fields)): Check {
	return (value) => isPlainObject(value)
		&& Object.keys(value).every((key) => Object.hasOwn(fields, key))
		&& required.every((key) => Object.hasOwn(value, key))
		&& Object.entries(fields).every(([key, check]) => check(value[key]));
}

const OVERRIDE_FIELDS: Readonly<Record<keyof WhatIfOverrides, Check>> = {
	'chainCompression.rollingWindow': optional(isCount),
	'thinkingStrip.enabled': optional(isBoolean),
	'thinkingStrip.keepLastTurns': optional(isCount),
	'purgeErrors.cooldownTurns': optional(isCount),
	protectedTools: optional(listOf(isString)),
};
const isOverrides = shaped(OVERRIDE_FIELDS, []);

const isPageState = shaped({
	sessionPath: optional(isString),
	view: isView,
	overrides: isOverrides,
	anchor: optional(shaped({ key: isString, offset: isNumber })),
	query: isString,
	expanded: listOf(isString),
	costs: optional(isBoolean),
} satisfies Record<keyof PageState, Check>, ['view', 'overrides', 'query', 'expanded']);

const RENDER_CAUSES: readonly RenderReport['cause'][] = ['snapshot', 'view', 'expand', 'search', 'reveal', 'scroll', 'restore', 'lastSent', 'costs'];
const REPORT_FIELDS: Readonly<Record<keyof RenderReport, Check>> = {
	cause: (value) => RENDER_CAUSES.includes(value as RenderReport['cause']),
	sessionPath: isString,
	view: isView,
	rowCount: isCount,
	renderedRows: listOf(isCount),
	topKey: optional(isString),
	domNodes: isCount,
	renderMs: isNumber,
	figures: recordOf(isString),
	values: recordOf(isNumber),
	expanded: listOf(isString),
	searchHits: isCount,
	highlights: isCount,
	whatIfChanges: isCount,
};
const isRenderReport = shaped(REPORT_FIELDS, Object.keys(REPORT_FIELDS).filter((key) => key !== 'topKey'));

/** Each message type with the check of its fields (`type` included). */
const MESSAGES: Readonly<Record<FromWebview['type'], Check>> = {
	ready: shaped({ type: isString, state: optional(isPageState) }, ['type']),
	showView: shaped({ type: isString, view: isView, index: optional(isCount) }, ['type', 'view']),
	// Any range is accepted: the host clamps it to the view and bounds what it answers.
	rows: shaped({ type: isString, requestId: isCount, snapshotId: isCount, view: isView, start: isCount, end: isCount }),
	viewport: shaped({ type: isString, view: isView, key: isString }),
	setWhatIf: shaped({ type: isString, overrides: isOverrides }),
	applyWhatIf: shaped({ type: isString, overrides: isOverrides }),
	expandRow: shaped({ type: isString, requestId: isCount, view: isView, key: isString }),
	recover: shaped({ type: isString, requestId: isCount, ref: isString }),
	openRef: shaped({ type: isString, ref: isString }),
	compact: shaped({ type: isString }),
	summarizeNow: shaped({ type: isString }),
	openLastSent: shaped({ type: isString }),
	compareRequests: shaped({ type: isString }),
	showCosts: shaped({ type: isString, shown: isBoolean }),
	search: shaped({ type: isString, requestId: isCount, view: isView, query: isString }),
	rendered: shaped({ type: isString, report: isRenderReport }),
};

export type PageMessageCheck =
	| { readonly message: FromWebview; readonly ignored?: string }
	| { readonly message: undefined; readonly ignored: string };

/**
 * The message, if it is one of the protocol's; otherwise what was ignored, for the log (its type
 * and keys, never its content). A `ready` whose saved state is not a page state is kept without it:
 * the page then starts afresh rather than never getting its first snapshot.
 */
export function checkPageMessage(value: unknown): PageMessageCheck {
	if (!isPlainObject(value) || typeof value.type !== 'string' || !Object.hasOwn(MESSAGES, value.type)) {
		return { message: undefined, ignored: describe(value) };
	}
	if (MESSAGES[value.type as FromWebview['type']](value)) {
		return { message: value as unknown as FromWebview };
	}
	if (value.type === 'ready') {
		return { message: { type: 'ready', state: undefined }, ignored: `the saved state of ${describe(value)}` };
	}
	return { message: undefined, ignored: describe(value) };
}

function describe(value: unknown): string {
	if (!isPlainObject(value)) {
		return value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
	}
	const type = typeof value.type === 'string' ? JSON.stringify(value.type.slice(0, 40)) : 'no type';
	return `${type} with ${Object.keys(value).slice(0, 10).join(', ') || 'no fields'}`;
}
