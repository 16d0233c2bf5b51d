import { existsSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { killAllNow } from '../../bench/processes.ts';
import {
  createDatabase,
  newDataDir,
  onServer,
  removeDataDir,
  type SeededTemplate,
  startInstance,
  waitUntilServing,
} from './cluster.ts';

/**
 * Seeds the demo shop once for the whole suite: two instances start together on an empty database
 * with one shared data folder, as a first deployment of two replicas would (the migration and seed
 * advisory locks decide who does the work). Every test then clones that database and folder in a
 * second instead of seeding for half a minute. instances.test.ts checks that the work was done once.
 */
export default async function setup(project: TestProject) {
  if (!existsSync('build/server/index.js')) {
    throw new Error('The web app is not built: `npm run test:load` builds it, or run `npm run build`.');
  }
  const database = await createDatabase();
  await database.sql.end();
  const dataDir = newDataDir();
  const cleanUp = async () => {
    killAllNow();
    await onServer(`drop database if exists ${database.name} with (force)`);
    removeDataDir(dataDir);
  };
  try {
    const instances = await Promise.all(
      ['seed-a', 'seed-b'].map((name) =>
        startInstance({ name, databaseUrl: database.url, dataDir, wait: false }),
      ),
    );
    await Promise.all(instances.map(waitUntilServing));
    const startOutputs = instances.map((instance) => instance.output());
    // Stopped cleanly, so that nothing is connected to the template when the tests clone it.
    await Promise.all(instances.map((instance) => instance.stop()));
    const template: SeededTemplate = { database: database.name, dataDir, startOutputs };
    project.provide('loadTemplate', template);
  } catch (error) {
    await cleanUp();
    throw error;
  }
  return cleanUp;
}
