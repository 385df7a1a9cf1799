/**
 * Where the page looks, as far as the host knows: the row restored, revealed or switched to, or the
 * one the page says is at its top once its scrolling settles. A new snapshot's window of rows is
 * placed around it, so a live update or a what-if arrives with the rows already on screen.
 */
import type { ViewName } from '../../shared/protocol';
import type { SnapshotRows } from './snapshotRows';

export class PagePosition {
	private at: { readonly view: ViewName; readonly key?: string; readonly index?: number } = { view: 'after' };

	/** The page shows `view` from row `index` (from its top when none is given). */
	showing(view: ViewName, index = 0): void {
		this.at = { view, index };
	}

	/** The row with this key is at the top of `view` (saved by the page, or said by it while scrolling). */
	atKey(view: ViewName, key: string): void {
		this.at = { view, key };
	}

	/** The position's row in `view` of `rows`; 0 (the top) when the position is of another view or its row is gone. */
	indexIn(rows: SnapshotRows, view: ViewName): number {
		const { key, index } = this.at;
		if (this.at.view !== view) {
			return 0;
		}
		return (key === undefined ? index : rows.indexOf(view, key)) ?? 0;
	}
}
