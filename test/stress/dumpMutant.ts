/**
 * Writes the fuzz mutant of a seed to a file, to reproduce a failure by hand:
 *   node out/test/stress/dumpMutant.js <seed> [out.jsonl]    (then e.g. node dist/cli.js preview out.jsonl)
 */
import { writeFileSync } from 'node:fs';
import { SessionCorpus } from '../support/fuzz/sessionCorpus';
import { mutateSession } from '../support/fuzz/sessionMutator';

const seed = Number(process.argv[2]);
if (!Number.isInteger(seed)) {
	console.error('usage: node out/test/stress/dumpMutant.js <seed> [out.jsonl]');
	process.exit(2);
}
const out = process.argv[3] ?? `mutant-${seed}.jsonl`;
const mutant = mutateSession(SessionCorpus.load(), seed);
writeFileSync(out, mutant.bytes);
console.log(`${out}: ${mutant.bytes.length} bytes from ${mutant.source}\n  ${mutant.mutations.join('\n  ')}`);
