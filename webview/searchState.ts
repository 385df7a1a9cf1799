/**
 * Search over the whole context: the host finds the matches in full texts (not only the rows on
 * screen); the page keeps them, steps through them and says where it is.
 */
import type { SearchHitMessage } from '../src/shared/protocol';

export class SearchState {
	query = '';
	requestId = 0;
	private hitList: readonly SearchHitMessage[] = [];
	private capped = false;
	private cursor = -1;
	private rows: Set<number> = new Set();

	get hits(): readonly SearchHitMessage[] {
		return this.hitList;
	}

	get hitRows(): ReadonlySet<number> {
		return this.rows;
	}

	setResults(hits: readonly SearchHitMessage[], capped: boolean, fromRow: number): void {
		this.hitList = hits;
		this.capped = capped;
		this.rows = new Set(hits.map((hit) => hit.row));
		const first = hits.findIndex((hit) => hit.row >= fromRow);
		this.cursor = hits.length === 0 ? -1 : Math.max(0, first);
	}

	clear(): void {
		this.setResults([], false, 0);
	}

	/** Moves to the next (+1) or previous (−1) match, wrapping around. */
	step(direction: 1 | -1): SearchHitMessage | undefined {
		if (this.hitList.length === 0) {
			return undefined;
		}
		this.cursor = (this.cursor + direction + this.hitList.length) % this.hitList.length;
		return this.current();
	}

	current(): SearchHitMessage | undefined {
		return this.hitList[this.cursor];
	}

	/** How many matches of the current row come before the current one. */
	indexInRow(): number {
		const current = this.current();
		if (!current) {
			return 0;
		}
		let count = 0;
		for (let i = this.cursor - 1; i >= 0 && this.hitList[i]?.row === current.row; i--) {
			count++;
		}
		return count;
	}

	countText(): string {
		if (this.query === '') {
			return '';
		}
		if (this.hitList.length === 0) {
			return 'No results';
		}
		return `${this.cursor + 1} / ${this.hitList.length}${this.capped ? '+' : ''}`;
	}
}
