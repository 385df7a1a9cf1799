/**
 * The inline head of a spilled result: the whole text when it fits in `maxBytes` UTF-8 bytes,
 * else the longest prefix that fits, never splitting a character, cut back to its last line break
 * when it has one (pi-condense's rule). Pure.
 */
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function headPreview(text: string, maxBytes: number): string {
	const bytes = encoder.encode(text);
	if (bytes.length <= maxBytes) {
		return text;
	}
	let end = Math.max(0, maxBytes);
	// Back off continuation bytes (10xxxxxx) so the cut lands on a character boundary.
	while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) {
		end--;
	}
	const head = decoder.decode(bytes.subarray(0, end));
	const lastBreak = head.lastIndexOf('\n');
	return lastBreak > 0 ? head.slice(0, lastBreak) : head;
}
