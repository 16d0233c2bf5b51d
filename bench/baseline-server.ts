import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';

/**
 * The denominator of `npm run bench`: a bare Fastify 5 app on the same machine and Node version
 * as the shop, with no plugins beyond @fastify/static. Started by bench/run.ts as a child
 * process; PORT and HOST come from the environment.
 */
const app = Fastify({ logger: false });

app.get('/json', async () => ({ success: true, hello: 'world' }));

await app.register(fastifyStatic, {
  root: path.join(path.dirname(fileURLToPath(import.meta.url)), 'baseline-static'),
  prefix: '/static/',
});

await app.listen({ host: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT ?? 0) });

const stop = () => void app.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
