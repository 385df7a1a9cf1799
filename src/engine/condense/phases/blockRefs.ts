/**
 * `{bN}` placeholders in a chain body: each is replaced by block N's body, one level deep (the
 * inserted text is not scanned again). A block's reference to itself, and unknown or empty blocks,
 * stay literal. Pure.
 *
 * @example
 * substituteBlockRefs('see {b1} and {b9}', (id) => (id === 'b1' ? 'setup' : undefined), 'b2')
 * // 'see setup and {b9}'
 */

export type BlockBodyLookup = (blockId: string) => string | undefined;

export function substituteBlockRefs(text: string, lookup: BlockBodyLookup, selfBlockId: string): string {
	return text.replace(/\{b(\d+)\}/g, (placeholder, digits: string) => {
		const blockId = `b${digits}`;
		if (blockId === selfBlockId) {
			return placeholder;
		}
		return lookup(blockId) ?? placeholder;
	});
}
