/**
 * `npm run stress adversarial`: every regular expression and glob applied to session or model text
 * (test/support/adversarialInputs.ts), timed on 10 KB and on 1 MB of its worst input. Prints each
 * case and the worst ratio against the linear baseline; fails above 3x (quadratic code is about
 * 100x).
 */
import { ADVERSARIAL_CASES } from '../support/adversarialInputs';
import { describeLinearity, measureLinearity, type LinearityResult } from '../support/linearity';
import type { StressArgs, StressResult } from './stressArgs';

const LIMIT = 3;

export function adversarialStress(_args: StressArgs): Promise<StressResult> {
	const results: LinearityResult[] = [];
	for (const subject of ADVERSARIAL_CASES) {
		const result = measureLinearity(subject, { limit: LIMIT });
		console.log(`  ${describeLinearity(result)}`);
		results.push(result);
	}
	const worst = results.reduce((a, b) => (b.ratio > a.ratio || b.stoppedAt !== undefined ? b : a));
	const failed = results.some((result) => result.ratio > LIMIT || result.stoppedAt !== undefined);
	const line = `adversarial: ${results.length} regexes and globs on 10 KB and 1 MB; worst ${worst.ratio.toFixed(2)}x the linear baseline (${worst.name})${failed ? ` — above ${LIMIT}x: FAILED` : ''}`;
	return Promise.resolve({ line, failed });
}
