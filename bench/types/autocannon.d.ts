/** autocannon ships no types; the harness uses its documented programmatic API (bench/lib/load.ts). */
declare module 'autocannon';
