export { openTestEnv, withDatabase, TESTKIT_ENV, type TestEnv, type MinioAccess } from './test-env.ts';
