import assert from 'node:assert/strict';
import { displayWidth, fitSessionLabel, TITLE_MIN_WIDTH } from '../../../../src/engine/views/rowFit';

describe('fitSessionLabel', () => {
	const title = 'Fix the flaky invoice date test in the billing service';

	it('keeps a label that fits whole, and every label when the width is 0', () => {
		assert.equal(fitSessionLabel({ title: 'Fix the build', distinction: '' }, '6d · 25 msgs · -54%', 36), 'Fix the build');
		assert.equal(fitSessionLabel({ title, distinction: '' }, '6d · 25 msgs · -54%', 0), title);
	});

	it('shortens the title alone so that label, space and description take the row\'s width', () => {
		const description = '6d · 25 msgs · -54%';
		const label = fitSessionLabel({ title, distinction: '' }, description, 36);
		assert.equal(label, 'Fix the flaky i…');
		assert.equal(displayWidth(label) + 1 + displayWidth(description), 36);
	});

	it('never cuts what tells same-titled sessions apart, and keeps the title\'s first words', () => {
		const label = fitSessionLabel({ title, distinction: ' · 2026-05-30 09:15' }, '6d · 25 msgs · -54% if installed', 36);
		assert.ok(label.endsWith('… · 2026-05-30 09:15'), label);
		assert.equal(label, `${title.slice(0, TITLE_MIN_WIDTH - 1)}… · 2026-05-30 09:15`, 'no room left: the title keeps its minimum');
	});

	it('counts a wide character as two columns and never splits one (nor a surrogate pair)', () => {
		assert.equal(displayWidth('修复发票日期测试'), 16);
		assert.equal(displayWidth('fix 🐛 now'), 10);
		const label = fitSessionLabel({ title: '修复发票日期测试的不稳定问题', distinction: '' }, '6d · 25 msgs', 30);
		assert.equal(label, '修复发票日期测试…', 'seventeen columns: eight wide characters and the ellipsis');
		const emoji = fitSessionLabel({ title: `${'a'.repeat(14)}🐛🐛🐛🐛🐛`, distinction: '' }, '6d · 25 msgs', 30);
		assert.equal(emoji, `${'a'.repeat(14)}🐛…`);
		assert.ok(!/[\ud800-\udbff](?![\udc00-\udfff])/.test(emoji), 'no lone high surrogate');
	});
});
