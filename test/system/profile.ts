/**
 * How long and how hard the system suites push. `npm run test:system` (and CI) runs the fast profile, sized to finish
 * in a few minutes on a 2-core machine; `npm run test:system:long` runs the long one with the full figures
 * (1,000 req/s for 60 s, a 5-minute soak). Every loop in the suites is bounded by these numbers.
 */
export const SYSTEM_PROFILE: 'fast' | 'long' = process.env.SYSTEM_PROFILE === 'long' ? 'long' : 'fast';
export const IS_LONG = SYSTEM_PROFILE === 'long';
