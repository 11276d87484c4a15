/**
 * Entry of bench operator processes: the forced-GC hook (bench/lib/gc-preload.ts) and the
 * stall probe (bench/lib/stall-preload.ts), then the operator exactly as `src/main.ts` runs it
 * (same flags, same code).
 */
import './gc-preload.js';
import './stall-preload.js';
import '../../src/main.js';
