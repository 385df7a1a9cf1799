import assert from 'node:assert/strict';
import { displayWidth, fitSessionLabel, TITLE_MIN_WIDTH } from '../../../../src/engine/views/rowFit';

describe('fitSessionLabel', () => {
	const title = 'Fix the flaky invoice date test in the billing service';
	const figures = '6d · 25 msgs · -54%';
	/** Label, gap and description as the row draws them (the description at 0.9 of the label's size). */
	const drawn = (label: string, description: string): number => displayWidth(label) + 0.5 + displayWidth(description) * 0.9;

	it('keeps a label that fits whole, and every label when the width is 0', () => {
		assert.equal(fitSessionLabel({ title: 'Fix the build', distinction: '' }, '6d · 2 msgs', 30), 'Fix the build');
		assert.equal(fitSessionLabel({ title, distinction: '' }, figures, 0), title);
	});

	it('shortens the title alone, with …, so that label, gap and description fit the row', () => {
		for (const width of [23, 30, 36, 42]) {
			const label = fitSessionLabel({ title, distinction: '' }, figures, width);
			assert.ok(label.endsWith('…') && title.startsWith(label.slice(0, -1)), label);
			assert.ok(drawn(label, figures) <= width, `${label}: ${drawn(label, figures)} > ${width}`);
			assert.ok(drawn(fitSessionLabel({ title, distinction: '' }, figures, width + 3), figures) > drawn(label, figures), 'a wider row shows more of the title');
		}
		assert.equal(fitSessionLabel({ title, distinction: '' }, figures, 30), 'Fix the flaky inv…');
		assert.equal(fitSessionLabel({ title, distinction: '' }, figures, 23), 'Fix the…', 'the default width');
	});

	it('weighs what is drawn wide and narrow: a title of capitals is cut sooner than one of narrow letters', () => {
		assert.ok(displayWidth('WWWW') > displayWidth('abcd') && displayWidth('abcd') > displayWidth('illi'));
		const capitals = fitSessionLabel({ title: 'README AND API DOCS FOR THE BILLING SERVICE', distinction: '' }, figures, 40);
		const narrow = fitSessionLabel({ title: 'fill in its title lists with little jitter', distinction: '' }, figures, 40);
		assert.ok(capitals.length < narrow.length, `${capitals} / ${narrow}`);
		assert.ok(drawn(capitals, figures) <= 40 && drawn(narrow, figures) <= 40);
	});

	it('never cuts what tells same-titled sessions apart, and keeps the title\'s first letters', () => {
		const label = fitSessionLabel({ title, distinction: ' · 2026-05-30 09:15' }, '6d · 25 msgs · -54% if installed', 30);
		assert.ok(label.endsWith('… · 2026-05-30 09:15'), label);
		assert.ok(displayWidth(label.slice(0, label.indexOf('…') + 1)) <= TITLE_MIN_WIDTH, 'no room left: the title keeps its minimum');
		assert.ok(label.startsWith('Fix the'), label);
	});

	it('counts a wide character as about 1.7 letters and never splits one (nor a surrogate pair)', () => {
		assert.equal(displayWidth('修复'), 3.4);
		const label = fitSessionLabel({ title: '修复发票日期测试的不稳定问题', distinction: '' }, '6d · 25 msgs', 30);
		assert.ok(label.endsWith('…') && drawn(label, '6d · 25 msgs') <= 30, label);
		const emoji = fitSessionLabel({ title: `${'a'.repeat(12)}🐛🐛🐛🐛🐛`, distinction: '' }, '6d · 25 msgs', 30);
		assert.ok(emoji.startsWith('a'.repeat(12)) && emoji.endsWith('…'), emoji);
		assert.ok(!/[\ud800-\udbff](?![\udc00-\udfff])/.test(emoji), 'no lone high surrogate');
	});
});
