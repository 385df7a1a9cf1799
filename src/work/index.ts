/**
 * The running-work layer: who owns the work that runs over time, and how it stops. Every
 * long-lived object owns a `WorkScope` (a child of its owner's) and runs everything through it:
 * long passes in slices (`sliced`, always under a signal), `LatestWins` (restart or follow),
 * `SerialQueue`, `KeyedQueue`, `Slots`, `Debounce`, `AdaptiveThrottle`, timers, and work callers ask for
 * (`run`). Closing a scope aborts and awaits everything under it; `deactivate` closes the
 * extension's root, and the bridge runs on a root of its own in Pi's process, with the same slicer.
 *
 * Import the layer through this file: the slicer itself (`slicer.ts`) is not exported, so no long
 * pass runs without a scope's signal (lint enforces both).
 */
export { AdaptiveThrottle } from './adaptiveThrottle';
export { Debounce } from './debounce';
export { KeyedQueue } from './keyedQueue';
export { LatestWins, type LatestPolicy } from './latestWins';
export { SerialQueue } from './serialQueue';
export { Slots } from './slots';
export { SLICE_MS, type SliceOptions } from './slicer';
export type { ErrorListener, ScopeTimer, SliceRunner, WorkOwner } from './workOwner';
export { WorkScope, type WorkReport } from './workScope';
export { isWorkStopped, WorkStopped } from './workStopped';
