/** Shared by the deletion-request form (client) and its repository (server). */
export const MAX_DELETION_REASON_LENGTH = 1000;

/** Submissions (codes and deletion requests) per address: generous for people, tight for scripts. */
export const SUBMIT_RATE_LIMIT = { name: "submit", max: 30, windowMs: 10 * 60_000 } as const;

/**
 * The draw's daily bounds per network (issue 55, decision 312), as multiples of DRAW_DAILY_LIMIT (per
 * IPv6 /64 or IPv4 address): a /48 is one site of several subscribers, an IPv4 /24 often a carrier's
 * shared addresses, hence the higher bounds. A person draws a few codes a day; the bounds are there
 * so a script owning a few networks cannot spend draws at will to steer the rotation.
 */
export const DRAW_NETWORK_FACTORS = { subscriber: 1, "ipv6-48": 2, "ipv4-24": 10 } as const;
export const DAY_SECONDS = 24 * 60 * 60;
/**
 * Of those, one platform's draws: a quarter (5 a day per /64, 10 per /48, 50 per IPv4 /24 by
 * default). A person rarely needs more than a few codes of one platform a day; a script starving one
 * sharer must spend its draws on that one platform.
 */
export const DRAW_PLATFORM_SHARE = 0.25;
