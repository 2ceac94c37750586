// Runs before each test file: quiet, deterministic environment.
process.env.NODE_ENV = "test";
process.env.SESSION_SECRET ??= "test-secret-0123456789abcdef";
process.env.SITE_URL ??= "https://parrainly.test";
process.env.I18N_STRICT = "1";
// Users the fixtures create in-process are hashed as the test servers hash theirs (decision 399).
process.env.PASSWORD_HASH_COST ??= "10";
