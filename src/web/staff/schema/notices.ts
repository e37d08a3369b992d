/** Notice durations of the spec (section 9). */
export const SUCCESS_NOTICE_MS = 2500;
export const ERROR_NOTICE_MS = 30_000;
