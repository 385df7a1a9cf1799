/**
 * Public API of the chain engine: which closed tool-call chains a release compresses (detection, the
 * rolling window, the grace of recovered outputs), what each job needs (planning) and the entry and
 * deterministic body a chain gets. Below the flush, the preview and the metrics, which all use it. Pure.
 */
export { planChainSelectionSteps, compactableChainsSteps } from './chainSelection';
export { detectChainsSteps, type DetectedChain } from './detectChains';
export { selectChains } from './selectChains';
export { deterministicChainBody } from './deterministicBody';
