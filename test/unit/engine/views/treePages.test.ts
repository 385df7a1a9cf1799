/**
 * Long lists in the Pruned Calls view are cut into ranges, so that no row has more than
 * TREE_PAGE_ROWS children (VS Code sends a row's children to the window in one message).
 */
import assert from 'node:assert/strict';
import { resolveConfig } from '../../../../src/engine/config/resolve';
import { parseSessionSteps } from '../../../../src/engine/session';
import { runSteps } from '../../../../src/engine/steps';
import { buildPrunedCallsSteps, TREE_PAGE_ROWS, type Expandable, type PrunedNode } from '../../../../src/engine/views/prunedCallsModel';
import { SessionInsight } from '../../../../src/engine/views/sessionInsight';
import { arrayRows, pagedRows } from '../../../../src/engine/views/treePages';
import { LATEST } from '../../../support/releases';
import { SessionBuilder } from '../../../support/sessionBuilder';

function problem(index: number): PrunedNode {
	return { kind: 'problem', id: `p${index}`, label: `row ${index}`, severity: 'warning', line: index };
}

function childrenOf(rows: Expandable | PrunedNode): readonly PrunedNode[] {
	return 'children' in rows ? runSteps(rows.children()) : [];
}

/** Every leaf under `rows`, in order, and the largest number of children any row has. */
function leaves(rows: Expandable | PrunedNode): { labels: string[]; widest: number } {
	const children = childrenOf(rows);
	let widest = children.length;
	const labels: string[] = [];
	for (const child of children) {
		if (child.kind === 'range') {
			const below = leaves(child);
			labels.push(...below.labels);
			widest = Math.max(widest, below.widest);
		} else {
			labels.push(child.label);
		}
	}
	return { labels, widest };
}

describe('Pruned Calls: long lists in ranges', () => {
	it('lists up to TREE_PAGE_ROWS items directly, and more in ranges that hold them all in order', () => {
		const few = pagedRows('g', 'Rows', arrayRows(Array.from({ length: TREE_PAGE_ROWS }, (_, i) => i), problem));
		assert.equal(few.childCount, TREE_PAGE_ROWS);
		assert.ok(childrenOf(few).every((row) => row.kind === 'problem'));
		const count = TREE_PAGE_ROWS * 2 + 7;
		const many = pagedRows('g', 'Rows', arrayRows(Array.from({ length: count }, (_, i) => i), problem));
		const ranges = childrenOf(many);
		assert.equal(many.childCount, 3);
		assert.deepEqual(ranges.map((range) => [range.kind, range.label, range.description]), [
			['range', `Rows 1–${TREE_PAGE_ROWS}`, `of ${count.toLocaleString('en')}`],
			['range', `Rows ${TREE_PAGE_ROWS + 1}–${TREE_PAGE_ROWS * 2}`, `of ${count.toLocaleString('en')}`],
			['range', `Rows ${TREE_PAGE_ROWS * 2 + 1}–${count}`, `of ${count.toLocaleString('en')}`],
		]);
		assert.deepEqual(leaves(many).labels, Array.from({ length: count }, (_, i) => `row ${i}`));
	});

	it('nests ranges past TREE_PAGE_ROWS² items, so no row ever has more children than that', () => {
		const count = TREE_PAGE_ROWS * TREE_PAGE_ROWS + 1;
		const source = { count, row: problem };
		const top = pagedRows('g', 'Rows', source);
		assert.equal(top.childCount, 2);
		const [first, second] = childrenOf(top);
		assert.equal(first?.label, `Rows 1–${TREE_PAGE_ROWS * TREE_PAGE_ROWS}`);
		assert.equal(second?.label, `Rows ${count}–${count}`);
		assert.equal(first && 'childCount' in first && first.childCount, TREE_PAGE_ROWS);
		const inner = first ? childrenOf(first) : [];
		assert.equal(inner[1]?.label, `Rows ${TREE_PAGE_ROWS + 1}–${TREE_PAGE_ROWS * 2}`);
		assert.equal(inner[1] ? childrenOf(inner[1])[0]?.label : undefined, `row ${TREE_PAGE_ROWS}`);
	});

	it('keeps a range\'s id when the list grows, and says which range holds a ref', () => {
		const items = (count: number): number[] => Array.from({ length: count }, (_, i) => i);
		const rows = (count: number): Expandable => pagedRows('g', 'Rows', arrayRows(items(count), problem, (item, ref) => ref === `p${item}`));
		const before = childrenOf(rows(TREE_PAGE_ROWS + 10)).map((range) => range.id);
		const after = childrenOf(rows(TREE_PAGE_ROWS + 20)).map((range) => range.id);
		assert.deepEqual(after, before);
		const grown = rows(TREE_PAGE_ROWS * 3);
		assert.equal(grown.holds(`p${TREE_PAGE_ROWS + 3}`), true);
		assert.equal(grown.holds('p-1'), false);
		assert.deepEqual(childrenOf(grown).map((range) => 'holds' in range && range.holds(`p${TREE_PAGE_ROWS + 3}`)), [false, true, false]);
	});

	it('cuts a session\'s pending batches into ranges', () => {
		const builder = new SessionBuilder();
		const batches = TREE_PAGE_ROWS + 40;
		for (let turn = 0; turn < batches; turn++) {
			builder.user(`step ${turn}`);
			builder.assistant([{ type: 'toolCall', id: `c${turn}`, name: 'bash', arguments: { command: `echo ${turn}` } }]);
			builder.toolResult(`c${turn}`, 'bash', `${turn}\n`);
		}
		const { config } = resolveConfig({ enabled: true }, LATEST);
		const roots = runSteps(buildPrunedCallsSteps(runSteps(new SessionInsight(runSteps(parseSessionSteps(builder.text())), config, LATEST).prepare()), String));
		const pending = roots.find((node) => node.kind === 'group' && node.group === 'pending');
		assert.ok(pending && pending.kind === 'group');
		assert.equal(pending.childCount, 2);
		const { labels, widest } = leaves(pending);
		assert.equal(labels.length, batches);
		assert.ok(widest <= TREE_PAGE_ROWS);
		assert.match(labels[0] ?? '', /^Turn \d+ · 1 tool call$/);
	});
});
