/** `node out/test/bench/makeHistory.js`: makes the bench history (once) and prints where it is. */
import { benchHistory } from './historyFixture';

const history = benchHistory((line) => console.log(line));
console.log(`${history.files.length} sessions, ${(history.bytes / 1e9).toFixed(2)} GB in ${history.agentDir}`);
