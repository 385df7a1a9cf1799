/**
 * What `piCondense.revealInPreview` was given, as the id the preview looks up: a string (a `tN`
 * ref, a `bN` block, a tool-call id or an entry id), or a tree element or link argument carrying
 * one of them (`ref`, `recoveryId`, `blockId`, `toolCallId`, `entryId`, in that order).
 */
const FIELDS = ['ref', 'recoveryId', 'blockId', 'toolCallId', 'entryId'] as const;

export function revealTarget(argument: unknown): string | undefined {
	if (typeof argument === 'string') {
		return argument.trim() === '' ? undefined : argument.trim();
	}
	if (typeof argument !== 'object' || argument === null) {
		return undefined;
	}
	for (const field of FIELDS) {
		const value = (argument as Readonly<Record<string, unknown>>)[field];
		if (typeof value === 'string' && value.trim() !== '') {
			return value.trim();
		}
	}
	return undefined;
}
