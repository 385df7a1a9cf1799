/**
 * Regression (fuzz seed 1811): an assistant block of a type Pi does not know (a newer pi-ai's, or a
 * damaged `toolCall`) is passed through by the session reader as Pi passes it; the preview text
 * assumed tool-call fields on it and the CLI crashed with a stack trace.
 */
import assert from 'node:assert/strict';
import { previewText } from '../../../src/cli/previewText';
import { previewContext } from '../../../src/engine/condense';
import { buildSessionContext, getBranch, parseSession } from '../../../src/engine/session';
import { SessionBuilder, text, toolCall } from '../../support/sessionBuilder';
import { defaults, LATEST } from '../../support/releases';

describe('previewText', () => {
	it('names blocks of unknown types instead of failing on them', () => {
		const builder = new SessionBuilder();
		builder.user('go');
		builder.assistant([text('looking'), { type: 'toolCalk', id: 'c1', name: 'bash' }, { type: 'redacted_future_block' }, toolCall('c2', 'bash', { command: 'ls' })]);
		const model = parseSession(builder.text());
		assert.deepEqual(model.diagnostics, []);
		const preview = previewContext(getBranch(model), buildSessionContext(model).messages, { ...defaults(LATEST), enabled: true }, LATEST);
		const shown = previewText(preview);
		assert.match(shown, /assistant {2}"looking" \[toolCalk\] \[redacted_future_block\] bash\(\{"command":"ls"\}\)/);
	});
});
