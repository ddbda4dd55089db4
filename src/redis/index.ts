// llm-rx/redis: the Redis Streams event log and the delivery ledger. Needs the optional peer
// `redis` (node-redis 5).
export { redisEventLog } from './redisEventLog';
export type { RedisClientLike, RedisEventLogOptions } from './options';
export { redisLedger } from './redisLedger';
export type { RedisLedgerOptions } from './redisLedger';
