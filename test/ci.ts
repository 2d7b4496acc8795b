/** The one reading of the CI flag for every suite: set and not "false"/"0" means CI, where a
 * missing tool (chromium, Incus, xmllint, …) is a failure, never a skip (test/prerequisites.ts). */
export const CI = !!process.env.CI && process.env.CI !== 'false' && process.env.CI !== '0';
