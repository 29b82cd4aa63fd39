// A plain Fastify hello-world (the tracker's own framework, default options): how much of the
// ceiling the framework alone keeps on this machine, so the tracker's ratio can be read against it.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`fastify hello-world listening on http://127.0.0.1:${app.server.address().port}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
