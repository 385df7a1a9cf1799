/**
 * Regression (fuzz seed 1811): an assistant block of a type Pi does not know (a newer pi-ai's, or a
 * damaged `toolCall`) is passed through by the session reader as Pi passes it; the preview text
 * assumed tool-call fields on it and the CLI crashed with a stack trace.
 */
import assert from 'node:assert/strict';
import { previewText } from '../../../src/cli/previewText';
import { previewContextSteps } from '../../../src/engine/condense';
import { buildSessionContextSteps, getBranchSteps, parseSessionSteps } from '../../../src/engine/session';
import { SessionBuilder, text, toolCall } from '../../support/sessionBuilder';
import { defaults, LATEST } from '../../support/releases';
import { runSteps } from '../../../src/engine/steps';

describe('previewText', () => {
	it('names blocks of unknown types instead of failing on them', () => {
		const builder = new SessionBuilder();
		builder.user('go');
		builder.assistant([text('looking'), { type: 'toolCalk', id: 'c1', name: 'bash' }, { type: 'redacted_future_block' }, toolCall('c2', 'bash', { command: 'ls' })]);
		const model = runSteps(parseSessionSteps(builder.text()));
		assert.deepEqual(model.diagnostics, []);
		const preview = runSteps(previewContextSteps(runSteps(getBranchSteps(model)), runSteps(buildSessionContextSteps(model)).messages, { ...defaults(LATEST), enabled: true }, LATEST));
		const shown = previewText(preview);
		assert.match(shown, /assistant {2}"looking" \[toolCalk\] \[redacted_future_block\] bash\(\{"command":"ls"\}\)/);
	});
});
