/**
 * Command-line options of the stress run and what each item reports.
 *   node out/test/stress/run.js [fuzz|crash|watcher|writers|undo|adversarial ...] [--seed N] [--count N] [--workers N]
 * `--count` is the number of mutants (fuzz), kill trials (crash), seconds (watcher), concurrent
 * write trials (writers) or concurrent undo trials (undo; 40% as many undo kills). Without `--seed`, an item draws a fresh seed and prints it at once (the
 * test suites never do: they run fixed seeds).
 */
export const STRESS_ITEMS = ['fuzz', 'crash', 'watcher', 'writers', 'undo', 'adversarial'] as const;
export type StressItem = (typeof STRESS_ITEMS)[number];

export interface StressArgs {
	readonly items: readonly StressItem[];
	readonly seed?: number;
	readonly count?: number;
	readonly workers?: number;
}

export interface StressResult {
	/** The summary line printed for the item. */
	readonly line: string;
	readonly failed: boolean;
}

export function parseStressArgs(argv: readonly string[]): StressArgs {
	const items: StressItem[] = [];
	const numbers: Record<string, number> = {};
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i] ?? '';
		if ((STRESS_ITEMS as readonly string[]).includes(arg)) {
			items.push(arg as StressItem);
		} else if (arg === '--seed' || arg === '--count' || arg === '--workers') {
			const value = Number(argv[++i]);
			if (!Number.isInteger(value)) {
				throw new Error(`${arg} needs an integer`);
			}
			numbers[arg.slice(2)] = value;
		} else {
			throw new Error(`unknown argument ${arg}; usage: run.js [${STRESS_ITEMS.join('|')}...] [--seed N] [--count N] [--workers N]`);
		}
	}
	return { items: items.length > 0 ? items : [...STRESS_ITEMS], seed: numbers['seed'], count: numbers['count'], workers: numbers['workers'] };
}

/** `--seed` when given, else a fresh random seed, printed as soon as it is drawn so a failure can be replayed. */
export function stressSeed(item: StressItem, args: StressArgs): number {
	if (args.seed !== undefined) {
		return args.seed;
	}
	const seed = Math.floor(Math.random() * 2 ** 31);
	console.log(`  ${item}: drew seed ${seed} (replay: npm run stress -- ${item} --seed ${seed})`);
	return seed;
}
