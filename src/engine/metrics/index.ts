/**
 * Public API of pi-condense's context metrics (2.7.0+): the metrics themselves, the data of a
 * `context-prune-flush-metrics` entry, and the footer and `/pruner status` texts built on them. Pure.
 */
export { contextMetricsForSteps, isTextOnlyAssistant, ZERO_CONTEXT_METRICS, type ContextMetrics } from './contextMetrics';
export { metricsMessages, messageChars } from './metricsBranch';
export {
	CUSTOM_TYPE_FLUSH_METRICS, flushMetricsData, flushMetricsEntry, flushMetricsOutcome, flushMetricsTrigger,
	type FlushMetricsData, type FlushMetricsOutcome, type FlushMetricsTrigger, type FlushRun, type FlushStart,
} from './flushMetricsEntry';
export { diagnosticCounts, diagSegment, metricsSegment, withFooterSegments, type DiagnosticCounts } from './footerSegments';
export { contextBlockLines } from './contextBlock';
