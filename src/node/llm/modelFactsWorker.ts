/**
 * Entry point of `dist/model-facts-worker.js`: a worker thread that loads pi-ai and answers model
 * lookups (price, context window). Loading pi-ai compiles several megabytes of code, which held the
 * extension host for ~0.4 s when the preview first asked for a price; here it holds only this thread.
 */
import { parentPort } from 'node:worker_threads';
import { errorMessage } from '../../shared/errorMessage';
import type { ModelFactsAnswer, ModelFactsRequest } from './modelFacts';
import { lookUpModel } from './modelPricing';
import { createPiAiLoader } from './piAiLoader';

const loadPiAi = createPiAiLoader(__dirname);

parentPort?.on('message', (request: ModelFactsRequest) => {
	const answer = (value: ModelFactsAnswer): void => parentPort?.postMessage(value);
	lookUpModel(loadPiAi, request.agentDir, request.provider, request.modelId).then(
		(facts) => answer({ id: request.id, facts }),
		(error: unknown) => answer({ id: request.id, error: errorMessage(error) }),
	);
});
