/**
 * A session's requests summed per quarter hour: every time zone's offset from UTC is a whole number
 * of quarter hours, so the days, weeks and months of any zone are unions of these buckets, and the
 * history (`history.ts`) places a bucket as it would place each of its requests. Token counts are
 * integers and their sums exact; dollar sums are kept exact (`ExactSum`), so a bucket's figures are
 * those of its requests added one by one, in any order, and a request can be taken out again. Pure.
 */
import { ExactSum } from './exactSum';
import type { RequestCost, RequestTokens, UsageSums } from './requestTypes';

export const QUARTER_HOUR_MS = 15 * 60_000;

/** The quarter hour that holds epoch ms `at` (NaN when the time is unknown). */
export function quarterOf(at: number): number {
	return Number.isFinite(at) ? Math.floor(at / QUARTER_HOUR_MS) : Number.NaN;
}

/** The requests of one quarter hour: how many, their tokens, and their dollars as exact partials. */
export interface UsageBucket {
	/** `quarterOf` their entries' time (NaN: unknown). */
	readonly quarter: number;
	readonly requests: number;
	readonly input: number;
	readonly output: number;
	readonly cacheRead: number;
	readonly cacheWrite: number;
	/** The partials (`ExactSum.partials`) of cost, costInput, costOutput, costCacheRead, costCacheWrite. */
	readonly costs: readonly [readonly number[], readonly number[], readonly number[], readonly number[], readonly number[]];
}

/** The figures of a request that its bucket sums. */
export interface UsageFigures {
	readonly tokens: Pick<RequestTokens, 'input' | 'output' | 'cacheRead' | 'cacheWrite'>;
	readonly cost: RequestCost;
}

/** Usage sums added to in place (exactly, in dollars), by request or by bucket. */
export class UsageAccumulator {
	requests = 0;
	input = 0;
	output = 0;
	cacheRead = 0;
	cacheWrite = 0;
	private readonly costs = [new ExactSum(), new ExactSum(), new ExactSum(), new ExactSum(), new ExactSum()] as const;

	/** Adds one request (`sign` -1: takes it out). */
	add(row: UsageFigures, sign: 1 | -1 = 1): void {
		const { tokens, cost } = row;
		this.requests += sign;
		this.input += sign * tokens.input;
		this.output += sign * tokens.output;
		this.cacheRead += sign * tokens.cacheRead;
		this.cacheWrite += sign * tokens.cacheWrite;
		this.costs[0].add(sign * cost.total);
		this.costs[1].add(sign * cost.input);
		this.costs[2].add(sign * cost.output);
		this.costs[3].add(sign * cost.cacheRead);
		this.costs[4].add(sign * cost.cacheWrite);
	}

	addBucket(bucket: UsageBucket): void {
		this.requests += bucket.requests;
		this.input += bucket.input;
		this.output += bucket.output;
		this.cacheRead += bucket.cacheRead;
		this.cacheWrite += bucket.cacheWrite;
		for (let part = 0; part < 5; part++) {
			this.costs[part]?.addParts(bucket.costs[part] ?? []);
		}
	}

	/** Adds another accumulator's sums (exactly). */
	addSums(other: UsageAccumulator): void {
		this.addBucket(other.bucket(Number.NaN));
	}

	done(): UsageSums {
		const [cost, costInput, costOutput, costCacheRead, costCacheWrite] = this.costs.map((sum) => sum.value()) as [number, number, number, number, number];
		const { requests, input, output, cacheRead, cacheWrite } = this;
		return { requests, input, output, cacheRead, cacheWrite, cost, costInput, costOutput, costCacheRead, costCacheWrite };
	}

	bucket(quarter: number): UsageBucket {
		const [cost, costInput, costOutput, costCacheRead, costCacheWrite] = this.costs.map((sum) => sum.partials()) as [number[], number[], number[], number[], number[]];
		const { requests, input, output, cacheRead, cacheWrite } = this;
		return { quarter, requests, input, output, cacheRead, cacheWrite, costs: [cost, costInput, costOutput, costCacheRead, costCacheWrite] };
	}
}

/** Requests gathered into their quarter hours (requests may be added, and taken out, in any order). */
export class BucketsBuilder {
	private readonly buckets = new Map<number, UsageAccumulator>();

	constructor(from: readonly UsageBucket[] = []) {
		for (const bucket of from) {
			this.at(bucket.quarter).addBucket(bucket);
		}
	}

	/** Adds a request made at epoch ms `at` (`sign` -1: takes it out). */
	add(at: number, row: UsageFigures, sign: 1 | -1 = 1): void {
		this.at(quarterOf(at)).add(row, sign);
	}

	/** The buckets that hold a request, earliest first (an unknown time last). */
	done(): UsageBucket[] {
		return [...this.buckets]
			.filter(([, sums]) => sums.requests !== 0)
			.sort(([a], [b]) => (Number.isNaN(a) ? 1 : Number.isNaN(b) ? -1 : a - b))
			.map(([quarter, sums]) => sums.bucket(quarter));
	}

	private at(quarter: number): UsageAccumulator {
		let sums = this.buckets.get(quarter);
		if (sums === undefined) {
			sums = new UsageAccumulator();
			this.buckets.set(quarter, sums);
		}
		return sums;
	}
}
