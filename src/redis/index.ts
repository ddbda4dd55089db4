// llm-rx/redis: the Redis Streams event log. Needs the optional peer `redis` (node-redis 5).
export { redisEventLog } from './redisEventLog';
export type { RedisClientLike, RedisEventLogOptions } from './options';
